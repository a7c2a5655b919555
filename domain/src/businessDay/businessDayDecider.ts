import type { Decider } from '../decider';
import { assertNever } from '../decider';
import { refuse } from '../domainError';
import type { BusinessDateMode, BusinessDayClose, CobStepName } from '../events/businessDayEvents';
import { cobStepNames } from '../events/businessDayEvents';
import type { BankEvent, EventTypeOfStream } from '../events/eventSchemas';
import { addDays } from '../standingOrder/schedule';
import { isLastDayOfMonth, monthOf } from '../interest/interestMath';

/**
 * The business calendar, stream `businessDays`. The open business date is the one after the last closed (the first
 * date before any close). Its close of business runs the steps of `cobStepNames` in order, each recorded once, then
 * the day close; a date is closed once: a step or close already recorded decides [], one out of order is refused.
 */

export type BusinessDayEventType = EventTypeOfStream<'businessDays'>;
export type BusinessDayEvent = Extract<BankEvent, { type: BusinessDayEventType }>;

/** The most days one manual advance may close. */
export const MAX_ADVANCE_DAYS = 366;

export interface BusinessDayState {
  readonly firstDate: string | null;
  readonly mode: BusinessDateMode | null;
  readonly lastClosed: string | null;
  readonly latestClose: BusinessDayClose | null;
  /** The COB steps already recorded for the open date. */
  readonly stepsDone: readonly CobStepName[];
  /** How far the interest step has gone (docs/interest.md). */
  readonly interest: InterestProgress;
}

export interface InterestProgress {
  /** The last date whose InterestAccrued is recorded. */
  readonly lastAccrued: string | null;
  /** The last date whose InterestBooked is recorded. */
  readonly lastBooked: string | null;
  /** The last month (YYYY-MM) whose InterestMonthClosed is recorded. */
  readonly lastMonthClosed: string | null;
}

const noInterestYet: InterestProgress = Object.freeze({ lastAccrued: null, lastBooked: null, lastMonthClosed: null });

export const initialBusinessDayState: BusinessDayState = Object.freeze({ firstDate: null, mode: null, lastClosed: null, latestClose: null, stepsDone: [], interest: noInterestYet });

export type BusinessDayCommand =
  | { readonly type: 'StartBusinessCalendar'; readonly firstDate: string; readonly mode: BusinessDateMode; readonly now: string }
  | { readonly type: 'CompleteCobStep'; readonly businessDate: string; readonly step: CobStepName; readonly now: string; readonly summary?: Record<string, number> | undefined }
  | { readonly type: 'CloseBusinessDay'; readonly close: BusinessDayClose }
  | { readonly type: 'AccrueInterest'; readonly businessDate: string; readonly rates: { readonly savings: number; readonly checking: number }; readonly now: string }
  | {
      readonly type: 'BookInterest';
      readonly businessDate: string;
      readonly accounts: number;
      readonly accruedUnits: string;
      readonly bookedCents: number;
      readonly now: string;
    }
  | { readonly type: 'CloseInterestMonth'; readonly businessDate: string; readonly paidAccounts: number; readonly paidCents: string; readonly now: string };

export function evolveBusinessDay(state: BusinessDayState, event: BusinessDayEvent): BusinessDayState {
  switch (event.type) {
    case 'BusinessCalendarStarted':
      return state.firstDate === null ? { ...state, firstDate: event.data.firstDate, mode: event.data.mode } : state;
    case 'CobStepCompleted':
      return state.stepsDone.includes(event.data.step) ? state : { ...state, stepsDone: [...state.stepsDone, event.data.step] };
    case 'BusinessDayClosed':
      return { ...state, lastClosed: event.data.businessDate, latestClose: event.data, stepsDone: [] };
    case 'InterestAccrued':
      return { ...state, interest: { ...state.interest, lastAccrued: event.data.businessDate } };
    case 'InterestBooked':
      return { ...state, interest: { ...state.interest, lastBooked: event.data.businessDate } };
    case 'InterestMonthClosed':
      return { ...state, interest: { ...state.interest, lastMonthClosed: event.data.month } };
    default:
      return assertNever(event);
  }
}

/** The date the next close of business is for: the day after the last closed, else the first date (null before the start). */
export function nextDateToClose(state: BusinessDayState): string | null {
  if (state.lastClosed !== null) return addDays(state.lastClosed, 1);
  return state.firstDate;
}

/** The open business date: manual mode, the next date to close; calendar mode, today (UTC). */
export function openBusinessDate(state: BusinessDayState, mode: BusinessDateMode, todayUtc: string): string {
  if (mode === 'calendar') return todayUtc;
  return nextDateToClose(state) ?? todayUtc;
}

/** Calendar mode: every date not yet closed that has ended (strictly before today, UTC), oldest first. */
export function datesDueForClose(state: BusinessDayState, todayUtc: string): string[] {
  const dates: string[] = [];
  for (let date = nextDateToClose(state); date !== null && date < todayUtc; date = addDays(date, 1)) dates.push(date);
  return dates;
}

/** The COB steps of the open date still to run, in order. */
export function cobStepsToRun(state: BusinessDayState): CobStepName[] {
  return cobStepNames.filter((step) => !state.stepsDone.includes(step));
}

function isClosed(state: BusinessDayState, date: string): boolean {
  return state.lastClosed !== null && date <= state.lastClosed;
}

function requireOpenDate(state: BusinessDayState, date: string): void {
  const next = nextDateToClose(state);
  if (next === null) refuse('invalid_business_date', 'The business calendar has not started');
  if (date !== next) refuse('invalid_business_date', `The business date to close is ${next}, not ${date}`);
}

export function decideBusinessDay(command: BusinessDayCommand, state: BusinessDayState): BusinessDayEvent[] {
  switch (command.type) {
    case 'StartBusinessCalendar':
      if (state.firstDate !== null) return [];
      return [{ type: 'BusinessCalendarStarted', data: { firstDate: command.firstDate, mode: command.mode, startedAt: command.now } }];
    case 'CompleteCobStep': {
      if (isClosed(state, command.businessDate) || state.stepsDone.includes(command.step)) return [];
      requireOpenDate(state, command.businessDate);
      const before = cobStepNames.slice(0, cobStepNames.indexOf(command.step));
      if (before.some((step) => !state.stepsDone.includes(step))) refuse('invalid_business_date', `COB step ${command.step} runs after ${before.join(', ')}`);
      return [
        {
          type: 'CobStepCompleted',
          data: { businessDate: command.businessDate, step: command.step, completedAt: command.now, ...(command.summary ? { summary: command.summary } : {}) },
        },
      ];
    }
    case 'CloseBusinessDay': {
      const { close } = command;
      if (isClosed(state, close.businessDate)) return [];
      requireOpenDate(state, close.businessDate);
      const missing = cobStepsToRun(state);
      if (missing.length > 0) refuse('invalid_business_date', `COB steps not done for ${close.businessDate}: ${missing.join(', ')}`);
      return [{ type: 'BusinessDayClosed', data: close }];
    }
    case 'AccrueInterest':
    case 'BookInterest':
    case 'CloseInterestMonth':
      return decideInterestStep(command, state);
    default:
      return assertNever(command);
  }
}

type InterestCommand = Extract<BusinessDayCommand, { type: 'AccrueInterest' | 'BookInterest' | 'CloseInterestMonth' }>;

/**
 * The interest step of the open date, in its order: accrue, book, and on the month's last day close the month (after
 * the payments). Each fact is recorded once: a command already recorded decides [], one out of order is refused.
 */
function decideInterestStep(command: InterestCommand, state: BusinessDayState): BusinessDayEvent[] {
  const date = command.businessDate;
  if (isClosed(state, date)) return [];
  requireOpenDate(state, date);
  if (!state.stepsDone.includes('standingOrders')) refuse('invalid_business_date', 'Interest runs after standingOrders');
  const { interest } = state;
  switch (command.type) {
    case 'AccrueInterest':
      if (interest.lastAccrued === date) return [];
      return [{ type: 'InterestAccrued', data: { businessDate: date, rates: { savings: command.rates.savings, checking: command.rates.checking }, accruedAt: command.now } }];
    case 'BookInterest':
      if (interest.lastBooked === date) return [];
      if (interest.lastAccrued !== date) refuse('invalid_business_date', `Interest for ${date} is booked after it accrues`);
      return [
        {
          type: 'InterestBooked',
          data: { businessDate: date, accounts: command.accounts, accruedUnits: command.accruedUnits, bookedCents: command.bookedCents, bookedAt: command.now },
        },
      ];
    case 'CloseInterestMonth': {
      const month = monthOf(date);
      if (interest.lastMonthClosed === month) return [];
      if (!isLastDayOfMonth(date)) refuse('invalid_business_date', `${date} is not the last day of its month`);
      if (interest.lastBooked !== date) refuse('invalid_business_date', `The month closes after ${date}'s interest is booked`);
      return [
        {
          type: 'InterestMonthClosed',
          data: { month, businessDate: date, paidAccounts: command.paidAccounts, paidCents: command.paidCents, closedAt: command.now },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

/** The manual advance exists only in manual mode: calendar mode refuses it ('The business date follows the calendar'). */
export function requireManualAdvance(mode: BusinessDateMode, days: number): void {
  if (mode !== 'manual') refuse('business_date_follows_calendar');
  if (!Number.isInteger(days) || days < 1 || days > MAX_ADVANCE_DAYS) throw new RangeError(`days must be a whole number from 1 to ${MAX_ADVANCE_DAYS}`);
}

export const businessDayDecider: Decider<BusinessDayCommand, BusinessDayEvent, BusinessDayState> = {
  name: 'businessDay',
  stateVersion: 2,
  initialState: initialBusinessDayState,
  evolve: evolveBusinessDay,
  decide: decideBusinessDay,
};

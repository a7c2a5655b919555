import type { Decider } from '../decider';
import { assertNever } from '../decider';
import { refuse } from '../domainError';
import type { BusinessDateMode, BusinessDayClose, CobStepName } from '../events/businessDayEvents';
import { cobStepNames } from '../events/businessDayEvents';
import type { BankEvent, EventTypeOfStream } from '../events/eventSchemas';
import { addDays } from '../standingOrder/schedule';

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
}

export const initialBusinessDayState: BusinessDayState = Object.freeze({ firstDate: null, mode: null, lastClosed: null, latestClose: null, stepsDone: [] });

export type BusinessDayCommand =
  | { readonly type: 'StartBusinessCalendar'; readonly firstDate: string; readonly mode: BusinessDateMode; readonly now: string }
  | { readonly type: 'CompleteCobStep'; readonly businessDate: string; readonly step: CobStepName; readonly now: string; readonly summary?: Record<string, number> | undefined }
  | { readonly type: 'CloseBusinessDay'; readonly close: BusinessDayClose };

export function evolveBusinessDay(state: BusinessDayState, event: BusinessDayEvent): BusinessDayState {
  switch (event.type) {
    case 'BusinessCalendarStarted':
      return state.firstDate === null ? { ...state, firstDate: event.data.firstDate, mode: event.data.mode } : state;
    case 'CobStepCompleted':
      return state.stepsDone.includes(event.data.step) ? state : { ...state, stepsDone: [...state.stepsDone, event.data.step] };
    case 'BusinessDayClosed':
      return { ...state, lastClosed: event.data.businessDate, latestClose: event.data, stepsDone: [] };
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
  stateVersion: 1,
  initialState: initialBusinessDayState,
  evolve: evolveBusinessDay,
  decide: decideBusinessDay,
};

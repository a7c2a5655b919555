import type { Decider } from '../decider';
import { assertNever } from '../decider';
import { refuse } from '../domainError';
import type { BankEvent, EventTypeOfStream } from '../events/eventSchemas';
import type { AccountKind } from '../primitives';
import { accountKinds } from '../primitives';
import { DEFAULT_ANNUAL_RATES, MAX_ANNUAL_RATE } from './interestMath';
import type { ScheduledRate } from './interestRates';

/**
 * The interest rates, stream `interestRates`: the rate of each account type from a business date on. Before any
 * change the defaults hold (savings 5.00 %, checking 0 %) from the bank's first business date. A change takes effect
 * from a business date after the current one; a second change for the same account and date replaces the first.
 */

export type InterestRatesEventType = EventTypeOfStream<'interestRates'>;
export type InterestRatesEvent = Extract<BankEvent, { type: InterestRatesEventType }>;

export interface InterestRatesState {
  /** The scheduled changes, by account, sorted by effectiveFrom, one per date. */
  readonly changes: Readonly<Record<AccountKind, readonly ScheduledRate[]>>;
}

export const initialInterestRatesState: InterestRatesState = Object.freeze({ changes: Object.freeze({ savings: [], checking: [] }) });

export interface ScheduleInterestRate {
  readonly type: 'ScheduleInterestRate';
  readonly account: AccountKind;
  readonly annualRate: number;
  readonly effectiveFrom: string;
  /** The current business date: a change takes effect after it. */
  readonly businessDate: string;
  readonly actorId: string;
  readonly now: string;
}

export type InterestRatesCommand = ScheduleInterestRate;

export function evolveInterestRates(state: InterestRatesState, event: InterestRatesEvent): InterestRatesState {
  switch (event.type) {
    case 'InterestRateScheduled': {
      const { account, annualRate, effectiveFrom } = event.data;
      const others = state.changes[account].filter((change) => change.effectiveFrom !== effectiveFrom);
      const next = [...others, { account, annualRate, effectiveFrom }].sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? -1 : a.effectiveFrom > b.effectiveFrom ? 1 : 0));
      return { changes: { ...state.changes, [account]: next } };
    }
    default:
      return assertNever(event.type);
  }
}

export function decideInterestRates(command: InterestRatesCommand, _state: InterestRatesState): InterestRatesEvent[] {
  if (!Number.isInteger(command.annualRate) || command.annualRate < 0 || command.annualRate > MAX_ANNUAL_RATE) throw new RangeError('annualRate must be 0–250000');
  if (command.effectiveFrom <= command.businessDate) refuse('rate_change_too_soon');
  return [
    {
      type: 'InterestRateScheduled',
      data: { account: command.account, annualRate: command.annualRate, effectiveFrom: command.effectiveFrom, actorId: command.actorId, scheduledAt: command.now },
    },
  ];
}

/** The rate of an account type on a business date: the latest change effective on or before it, else the default. */
export function rateOn(state: InterestRatesState, account: AccountKind, date: string): number {
  let rate = DEFAULT_ANNUAL_RATES[account];
  for (const change of state.changes[account]) {
    if (change.effectiveFrom > date) break;
    rate = change.annualRate;
  }
  return rate;
}

/** The rates of every account type on a business date. */
export function ratesOn(state: InterestRatesState, date: string): Record<AccountKind, number> {
  return { savings: rateOn(state, 'savings', date), checking: rateOn(state, 'checking', date) };
}

/**
 * The rates as GET /rates lists them on a business date: for each account type the rate in force (effective from the
 * date of the change that set it, or `firstDate` for a default) and every change scheduled after the date; no past ones.
 */
export function ratesListed(state: InterestRatesState, businessDate: string, firstDate: string): ScheduledRate[] {
  const listed: ScheduledRate[] = [];
  for (const account of accountKinds) {
    let inForce: ScheduledRate = { account, annualRate: DEFAULT_ANNUAL_RATES[account], effectiveFrom: firstDate };
    const future: ScheduledRate[] = [];
    for (const change of state.changes[account]) {
      if (change.effectiveFrom <= businessDate) inForce = change;
      else future.push(change);
    }
    listed.push(inForce, ...future);
  }
  return listed;
}

export const interestRatesDecider: Decider<InterestRatesCommand, InterestRatesEvent, InterestRatesState> = {
  name: 'interestRates',
  stateVersion: 1,
  initialState: initialInterestRatesState,
  evolve: evolveInterestRates,
  decide: decideInterestRates,
};

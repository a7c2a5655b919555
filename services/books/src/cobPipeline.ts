import type { CommandHandler } from '@bank/commands';
import {
  addDays,
  businessDayDecider,
  cobStepNames,
  datesDueForClose,
  openBusinessDate,
  requireManualAdvance,
  streams,
  type BusinessDayClose,
  type BusinessDayCommand,
  type BusinessDayState,
  type CobStepName,
} from '@bank/domain';
import type { EventStore, Position } from '@bank/eventstore';
import { utcDate, type Clock, type Logger } from '@bank/platform';
import type pg from 'pg';
import { readBusinessDays, startedBusinessDays, type BusinessDateMode } from './businessCalendar';
import type { CobFaultHook } from './cobFaults';
import { withCobLock } from './cobLock';
import { computeDayClose, type DayClose } from './dayClose';

/** What a step did, for operators (counts), recorded on its CobStepCompleted. */
export type CobStepSummary = Record<string, number>;

/** A COB step before the close: what it does for a date (`today`: the calendar's date now, for catch-up rules). */
export type CobStepRunner = (businessDate: string, today: string) => Promise<CobStepSummary | void>;

export interface CobDeps {
  readonly mode: BusinessDateMode;
  readonly commands: CommandHandler;
  readonly store: EventStore;
  /** Where the COB lock is taken (its connection settings: the lock has a connection of its own). */
  readonly pool: pg.Pool;
  readonly clock: Clock;
  /** Manual mode: BUSINESS_DATE_START. */
  readonly startDate?: string | undefined;
  /** The steps before the close, by name: every step of the domain's list (cobStepNames, run in its order). */
  readonly steps: Readonly<Record<CobStepName, CobStepRunner>>;
  /** Told of every close this COB appends (the worker's metrics; the error log is the COB's). */
  readonly onClosed?: (close: DayClose) => void;
  readonly fault?: CobFaultHook;
  readonly logger?: Logger;
}

export interface BusinessDateStatus {
  readonly businessDate: string;
  readonly mode: BusinessDateMode;
  readonly lastClosedDate: string | null;
}

export interface Cob {
  readonly mode: BusinessDateMode;
  /**
   * The worker's tick. Calendar mode: closes every date due (after the last closed, strictly before today UTC), in
   * order. Manual mode: finishes the COB of the open date when one began (a step recorded) and did not close. Skips
   * (answers []) while another process holds the COB lock.
   */
  runDue(): Promise<string[]>;
  /**
   * Manual mode: closes the open date and each following one, `days` in all (waits for the COB lock). `position`:
   * the last close appended (the COB's last event), undefined when no date was closed.
   */
  advance(days: number): Promise<{ businessDate: string; closed: string[]; position: Position | undefined }>;
  status(): Promise<BusinessDateStatus>;
}

/**
 * The close of business: for a date, each step of the domain's list in order, each recorded once in the
 * businessDays stream (CobStepCompleted) and skipped when a run finds it recorded, then the day close
 * (BusinessDayClosed, appended with the stream's expected revision; the domain refuses a date out of order and
 * answers [] for one already closed). Runs under the COB lock (cobLock.ts), so a date is closed once through crashes,
 * restarts, two workers and two advances at once.
 */
export function createCob(deps: CobDeps): Cob {
  const logger = deps.logger;
  const today = (): string => utcDate(deps.clock.now());
  const started = (): Promise<BusinessDayState> => startedBusinessDays(deps);

  async function recordStep(date: string, step: CobStepName, summary: CobStepSummary | void): Promise<BusinessDayState> {
    const command: BusinessDayCommand = { type: 'CompleteCobStep', businessDate: date, step, now: deps.clock.now().toISOString(), ...(summary ? { summary } : {}) };
    const result = await deps.commands.execute({
      decider: businessDayDecider,
      streamId: streams.businessDays(),
      decide: (state) => businessDayDecider.decide(command, state),
      context: { commandId: `cob:${date}:${step}`, metadata: { actorRole: 'system', correlationId: `cob:${date}` } },
      commandType: command.type,
    });
    return result.state;
  }

  /** The position of the businessDays stream's last event (this date's last step): appended after all the steps did. */
  async function lastStepPosition(): Promise<Position> {
    const revision = await deps.commands.read(businessDayDecider, streams.businessDays(), (_state, head) => head.revision);
    const [last] = await deps.store.readStream(streams.businessDays(), { fromRevision: revision ?? 0n, limit: 1 });
    if (!last) throw new Error('The businessDays stream is empty after its steps');
    return last.position;
  }

  function reportClose(close: DayClose): void {
    const { data } = close;
    if (data.balanced) {
      logger?.info({ businessDate: data.businessDate, lineCount: data.lineCount, journalHash: data.journalHash }, `Business day ${data.businessDate} closed, the books balanced`);
    } else {
      const accounts = data.unbalancedAccounts ?? [];
      logger?.error(
        {
          businessDate: data.businessDate,
          totalDebitsCents: data.totalDebitsCents,
          totalCreditsCents: data.totalCreditsCents,
          accounts: data.accounts,
          unbalancedEntries: close.unbalancedEntries.slice(0, 100),
        },
        `Business day ${data.businessDate} closed OUT OF BALANCE: debits ${data.totalDebitsCents} cents, credits ${data.totalCreditsCents} cents; ` +
          (accounts.length > 0 ? `accounts: ${accounts.join(', ')}` : 'no entry of the day is unbalanced: the imbalance was carried from an earlier close'),
      );
    }
    deps.onClosed?.(close);
  }

  /**
   * The COB of one date (every step not yet recorded, then the close): the close's position, undefined when the date
   * was closed already.
   */
  async function closeDate(date: string): Promise<Position | undefined> {
    let state = await started();
    if (state.lastClosed !== null && state.lastClosed >= date) return undefined;
    for (const step of cobStepNames) {
      // The steps recorded are the open date's: this date's, as the dates close in order.
      if (state.stepsDone.includes(step)) continue;
      // Catch-up rules count from the calendar's date now: the UTC date, or in manual mode the date being closed.
      const summary = await deps.steps[step](date, deps.mode === 'calendar' ? today() : date);
      if (step === 'standingOrders') await deps.fault?.('after-standing-orders');
      state = await recordStep(date, step, summary);
    }
    const previous: BusinessDayClose | null = state.latestClose;
    const close = await computeDayClose(deps.store, previous, date, deps.clock.now().toISOString(), { atLeast: await lastStepPosition() });
    await deps.fault?.('before-close');
    const after = await deps.commands.execute({
      decider: businessDayDecider,
      streamId: streams.businessDays(),
      decide: (current) => businessDayDecider.decide({ type: 'CloseBusinessDay', close: close.data }, current),
      context: { commandId: `cob:${date}:close`, metadata: { actorRole: 'system', correlationId: `cob:${date}` } },
      commandType: 'CloseBusinessDay',
    });
    if (after.events.length === 0 || !after.position) return undefined;
    reportClose(close);
    return after.position;
  }

  async function closeEach(dates: readonly string[]): Promise<{ closed: string[]; position: Position | undefined }> {
    const closed: string[] = [];
    let position: Position | undefined;
    for (const date of dates) {
      const closedAt = await closeDate(date);
      if (!closedAt) continue;
      closed.push(date);
      position = closedAt;
    }
    return { closed, position };
  }

  // Reads only: a calendar not started yet shows the date it will start at.
  const status = async (): Promise<BusinessDateStatus> => {
    const state = await readBusinessDays(deps.commands);
    const unstarted = deps.mode === 'manual' && state.firstDate === null ? (deps.startDate ?? today()) : undefined;
    return { businessDate: unstarted ?? openBusinessDate(state, deps.mode, today()), mode: deps.mode, lastClosedDate: state.lastClosed };
  };

  return {
    mode: deps.mode,
    status,
    async runDue() {
      const outcome = await withCobLock(deps.pool.options, false, async () => {
        const state = await started();
        if (deps.mode === 'calendar') return (await closeEach(datesDueForClose(state, today()))).closed;
        // A COB of the open date begun (a step recorded) and cut short by a crash: finish it.
        return state.stepsDone.length > 0 ? (await closeEach([openBusinessDate(state, 'manual', today())])).closed : [];
      });
      return outcome.ran ? outcome.value : [];
    },
    async advance(days) {
      requireManualAdvance(deps.mode, days);
      const outcome = await withCobLock(deps.pool.options, true, async () => {
        const first = openBusinessDate(await started(), 'manual', today());
        const dates = Array.from({ length: days }, (_, index) => addDays(first, index));
        const { closed, position } = await closeEach(dates);
        return { businessDate: (await status()).businessDate, closed, position };
      });
      if (!outcome.ran) throw new Error('The COB lock was not taken');
      return outcome.value;
    },
  };
}

import type { CommandHandler } from '@bank/commands';
import {
  businessDayDecider,
  interestRatesDecider,
  isLastDayOfMonth,
  monthOf,
  rateOn,
  streams,
  UNITS_PER_CENT,
  type BusinessDayCommand,
  type InterestRatesState,
} from '@bank/domain';
import type { EventStore, Position } from '@bank/eventstore';
import { sleep, type Clock, type Logger } from '@bank/platform';
import type pg from 'pg';
import type { CobStepRunner, CobStepSummary } from './cobPipeline';
import type { CobFaultHook } from './cobFaults';
import { bulkStoreOf, interestPayment, laterPosition, payInterestByCommand, payInterestInBulk, type InterestPaymentRequest } from './interestBulkPayments';
import { ProjectorBehindError, waitForReadModels } from './projectorWait';

export interface InterestStepDeps {
  readonly commands: CommandHandler;
  readonly store: EventStore;
  /** The read models (rm.interest_*), written by the projector. */
  readonly pool: pg.Pool;
  readonly clock: Clock;
  /** COB_PROJECTOR_WAIT_MS: how long to wait for the projector before failing the step. */
  readonly projectorWaitMs: number;
  /** INTEREST_PAYMENT_CONCURRENCY: payments in flight at once at month end. */
  readonly paymentConcurrency: number;
  /**
   * Payments per bulk append (PostgreSQL: one read of the streams' tails and one append call for that many
   * accounts); default 500. Without the store's bulk methods (EventStoreDB) each payment is one command.
   */
  readonly paymentChunk?: number;
  readonly fault?: CobFaultHook;
  readonly logger?: Logger;
}

/** The accounts read per page at month end. */
const PAGE = 2_000;
/** Payments per bulk append at month end (PostgreSQL). */
export const DEFAULT_PAYMENT_CHUNK = 500;


export { interestPayment, interestTransactionId, type InterestPaymentRequest } from './interestBulkPayments';

interface DayRow {
  accounts: number;
  accrued_units: string;
  booked_cents: string;
}

interface OwedRow {
  user_id: string;
  account: 'savings' | 'checking';
  booked_cents: string;
  /** The month's exact accrual plus the carry in (units). */
  owed_units: string;
  /** What stays after the payment: the carry into the next month (units). */
  carry_out_units: string;
}

/**
 * The COB's interest step for a business date D (docs/interest.md), each part recorded once and skipped when a run
 * finds it recorded (the businessDays stream's interest state), so a crash anywhere is finished by the next run:
 *  1. AccrueInterest(D) with the rates in force on D: the accrual of D is defined by where that event is in the log;
 *  2. wait until the projector has applied it (every account's accrual is then in rm.interest_*), and BookInterest
 *     with the day's totals from rm.interest_days (the ledger's one entry of the day);
 *  3. on the month's last day: pay every account whose booked cents are not paid yet (PayInterest, its transaction
 *     id derived from the account and the month: a payment made before a crash is a no-op when asked again), wait
 *     until the read models show every account paid, and CloseInterestMonth with the totals (the projector then
 *     rolls every account's carry).
 * The waits are for positions, not the store's head: the head is read through the event store's visibility fence
 * and may stand before an event just appended.
 */
export function interestStep(deps: InterestStepDeps): CobStepRunner {
  const now = (): string => deps.clock.now().toISOString();
  const bulk = bulkStoreOf(deps.store);
  const chunkSize = deps.paymentChunk ?? DEFAULT_PAYMENT_CHUNK;

  async function businessDay(command: BusinessDayCommand, commandId: string, date: string) {
    return deps.commands.execute({
      decider: businessDayDecider,
      streamId: streams.businessDays(),
      decide: (state) => businessDayDecider.decide(command, state),
      context: { commandId, metadata: { actorRole: 'system', correlationId: `cob:${date}` } },
      commandType: command.type,
    });
  }

  /**
   * The position of the InterestAccrued of `date` (appended by this run or an earlier one): among the last events of
   * the businessDays stream (the date's standing-order step, its accrual, booking and month close).
   */
  async function accrualPosition(date: string): Promise<Position> {
    const revision = await deps.commands.read(businessDayDecider, streams.businessDays(), (_state, head) => head.revision, { fresh: true });
    const from = revision === undefined || revision < 10n ? 0n : revision - 10n;
    const recent = await deps.store.readStream(streams.businessDays(), { fromRevision: from, limit: 50 });
    const accrued = recent.find((event) => event.type === 'InterestAccrued' && event.data.businessDate === date);
    if (!accrued) throw new Error(`InterestAccrued for ${date} is not among the businessDays stream's last events`);
    return accrued.position;
  }

  /** Waits until the read models have applied the accrual of `date` (every account's share of it). */
  async function accrualApplied(date: string, known?: Position): Promise<void> {
    await waitForReadModels(deps.pool, known ?? (await accrualPosition(date)), deps.projectorWaitMs, `the interest accrual of ${date}`);
  }

  /**
   * Waits until the read models show every account of the month paid (booked = paid): this run's payments and those
   * an earlier run made before it stopped, whose positions this run does not know.
   */
  async function paymentsApplied(month: string): Promise<{ paid_accounts: number; paid_cents: string }> {
    const started = Date.now();
    for (let pause = 2; ; pause = Math.min(50, pause * 2)) {
      const { rows } = await deps.pool.query<{ paid_accounts: number; paid_cents: string; unpaid: number }>(
        `SELECT count(*) FILTER (WHERE paid_cents > 0)::integer AS paid_accounts, coalesce(sum(paid_cents), 0)::text AS paid_cents,
                count(*) FILTER (WHERE booked_cents > paid_cents)::integer AS unpaid
           FROM rm.interest_accrued`,
      );
      const totals = rows[0]!;
      if (totals.unpaid === 0) return totals;
      if (Date.now() - started >= deps.projectorWaitMs) throw new ProjectorBehindError(`the interest payments of ${month} (${totals.unpaid} account(s) not shown paid)`, Date.now() - started);
      await sleep(pause);
    }
  }

  const paymentOf = (row: OwedRow, month: string, date: string): InterestPaymentRequest =>
    interestPayment(
      { userId: row.user_id, account: row.account, amountCents: Number(row.booked_cents), accruedUnits: row.owed_units, carryUnits: row.carry_out_units },
      month,
      date,
      now(),
    );

  /** Runs `work` over the items, `paymentConcurrency` at a time. */
  async function inLanes<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < items.length) {
        const item = items[next]!;
        next += 1;
        await work(item);
      }
    };
    await Promise.all(Array.from({ length: Math.min(deps.paymentConcurrency, items.length) }, lane));
  }

  /** The next page of accounts owed (booked, not paid yet) after `after`, in (user, account) order. */
  async function owedPage(after: readonly [string, string]): Promise<OwedRow[]> {
    const { rows } = await deps.pool.query<OwedRow>(
      `SELECT user_id, account, booked_cents::text, (carry_units + month_units)::text AS owed_units,
              (carry_units + month_units - booked_cents::numeric * ${UNITS_PER_CENT})::text AS carry_out_units
         FROM rm.interest_accrued
        WHERE booked_cents > paid_cents AND (user_id, account) > ($1::uuid, $2::text)
        ORDER BY user_id, account LIMIT ${PAGE}`,
      [...after],
    );
    return rows;
  }

  /** The pages of accounts owed, each read while the one before is being paid (the next page's read is started first). */
  async function* owedPages(): AsyncGenerator<OwedRow[]> {
    let next = owedPage(['00000000-0000-0000-0000-000000000000', '']);
    for (;;) {
      const rows = await next;
      if (rows.length === 0) return;
      const last = rows.at(-1)!;
      next = owedPage([last.user_id, last.account]);
      next.catch(() => undefined); // awaited on the next turn; a failure then is this generator's
      yield rows;
    }
  }

  /**
   * Pays every account of the month not paid yet, `paymentConcurrency` at a time (in bulk: chunks in flight). Answers
   * how many, and the latest position of those payments (appended or found stored) for the wait on the read models.
   */
  async function payMonth(month: string, date: string): Promise<{ made: number; last: Position | undefined }> {
    let made = 0;
    let fellBack = 0;
    let faulted = false;
    let last: Position | undefined;
    if (bulk) {
      // As many lanes as a page has chunks (at most paymentConcurrency), each taking the next chunk as soon as it is
      // free (no wait for a page's slowest chunk); a chunk is two round trips (tails, appends), what it could not pay
      // goes one by one.
      const pages = owedPages();
      const ready: InterestPaymentRequest[][] = [];
      let exhausted = false;
      const nextChunk = async (): Promise<InterestPaymentRequest[] | undefined> => {
        while (ready.length === 0 && !exhausted) {
          const page = await pages.next();
          if (page.done) exhausted = true;
          else for (let start = 0; start < page.value.length; start += chunkSize) ready.push(page.value.slice(start, start + chunkSize).map((row) => paymentOf(row, month, date)));
        }
        return ready.shift();
      };
      const lane = async (): Promise<void> => {
        for (let chunk = await nextChunk(); chunk; chunk = await nextChunk()) {
          const outcome = await payInterestInBulk(bulk, deps.commands, chunk);
          made += outcome.settled;
          fellBack += outcome.fallback.length;
          last = laterPosition(last, outcome.last);
          for (const payment of outcome.fallback) last = laterPosition(last, await payInterestByCommand(deps.commands, payment, true));
          made += outcome.fallback.length;
          if (!faulted && made >= 2) {
            faulted = true;
            await deps.fault?.('interest-payments');
          }
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(deps.paymentConcurrency, Math.ceil(PAGE / chunkSize))) }, lane));
      deps.logger?.info({ month, payments: made, oneByOne: fellBack }, 'COB: interest payments appended in bulk');
      return { made, last };
    }
    for await (const rows of owedPages()) {
      const payments = rows.map((row) => paymentOf(row, month, date));
      await inLanes(payments, async (payment) => {
        last = laterPosition(last, await payInterestByCommand(deps.commands, payment));
        made += 1;
        if (made === 2) await deps.fault?.('interest-payments');
      });
    }
    return { made, last };
  }

  return async (date) => {
    const summary: CobStepSummary = {};
    let accruedAt: Position | undefined;
    let state = await deps.commands.read(businessDayDecider, streams.businessDays(), (current) => ({ ...current.interest }), { fresh: true });

    if (state.lastAccrued === null || state.lastAccrued < date) {
      const ratesState: InterestRatesState = await deps.commands.read(interestRatesDecider, streams.interestRates(), (current) => current, { fresh: true });
      const rates = { savings: rateOn(ratesState, 'savings', date), checking: rateOn(ratesState, 'checking', date) };
      const accrued = await businessDay({ type: 'AccrueInterest', businessDate: date, rates, now: now() }, `interest:${date}:accrue`, date);
      state = { ...accrued.state.interest };
      accruedAt = accrued.position;
      await deps.fault?.('after-interest-accrued');
    }

    if (state.lastBooked === null || state.lastBooked < date) {
      await accrualApplied(date, accruedAt);
      const { rows } = await deps.pool.query<DayRow>('SELECT accounts, accrued_units::text, booked_cents::text FROM rm.interest_days WHERE business_date = $1::date', [date]);
      const day = rows[0];
      if (!day) throw new Error(`The read models have no interest accrual for ${date} although they applied its InterestAccrued`);
      const booked = await businessDay(
        { type: 'BookInterest', businessDate: date, accounts: day.accounts, accruedUnits: day.accrued_units, bookedCents: Number(day.booked_cents), now: now() },
        `interest:${date}:book`,
        date,
      );
      state = { ...booked.state.interest };
      summary.accounts = day.accounts;
      summary.bookedCents = Number(day.booked_cents);
      deps.logger?.info({ businessDate: date, accounts: day.accounts, accruedUnits: day.accrued_units, bookedCents: Number(day.booked_cents) }, 'COB: interest accrued and booked');
    }

    const month = monthOf(date);
    if (isLastDayOfMonth(date) && (state.lastMonthClosed === null || state.lastMonthClosed < month)) {
      await accrualApplied(date, accruedAt);
      const paying = performance.now();
      const { made, last } = await payMonth(month, date);
      const paymentsMs = Math.round(performance.now() - paying);
      // First the projector's checkpoint (a cheap poll) up to this run's last payment, then the count over every
      // account (a scan of rm.interest_accrued, not to be repeated while the projector works through the payments).
      if (last) await waitForReadModels(deps.pool, last, deps.projectorWaitMs, `the interest payments of ${month}`);
      const totals = await paymentsApplied(month);
      const shownPaidMs = Math.round(performance.now() - paying);
      await businessDay(
        { type: 'CloseInterestMonth', businessDate: date, paidAccounts: totals.paid_accounts, paidCents: totals.paid_cents, now: now() },
        `interest:${month}:close`,
        date,
      );
      summary.paidAccounts = totals.paid_accounts;
      summary.paidCents = Number(totals.paid_cents);
      deps.logger?.info({ businessDate: date, month, paymentsMade: made, paymentsMs, shownPaidMs, paidAccounts: totals.paid_accounts, paidCents: totals.paid_cents }, 'COB: interest of the month paid');
    }
    return summary;
  };
}

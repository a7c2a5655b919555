import { addDays, UNITS_PER_CENT } from '@bank/domain';
import type { Statement } from '../../changes/changeStatements';
import { halfEvenSql } from '../../schema/halfEvenSql';
import type { ReadModelTables } from '../../schema/readModelTables';
import type { BatchWriter } from '../projection';

/** A money event as the interest projection sees it: the balance it leaves, on its business date. */
export interface InterestMoney {
  readonly userId: string;
  readonly account: 'savings' | 'checking';
  readonly businessDate: string;
  readonly balanceAfterCents: number;
  readonly position: string;
}

/** An interest payment (an AccountCredited carrying `interest`). */
export interface InterestPaymentRow {
  readonly transactionId: string;
  readonly userId: string;
  readonly account: 'savings' | 'checking';
  readonly month: string;
  readonly businessDate: string;
  readonly amountCents: number;
  readonly accruedUnits: string;
  readonly carryUnits: string;
}

/** The money events between two day events of the log (accrual, month close): written as a few statements. */
class Segment {
  readonly opened: string[] = [];
  readonly money: InterestMoney[] = [];
  readonly payments: InterestPaymentRow[] = [];
  get empty(): boolean {
    return this.opened.length === 0 && this.money.length === 0 && this.payments.length === 0;
  }
}

type Step =
  | { readonly kind: 'segment'; readonly segment: Segment }
  | { readonly kind: 'accrued'; readonly businessDate: string; readonly savingsRate: number; readonly checkingRate: number; readonly position: string }
  | { readonly kind: 'booked'; readonly businessDate: string; readonly totals: DayTotals }
  | { readonly kind: 'monthClosed'; readonly month: string; readonly businessDate: string; readonly paidAccounts: number; readonly paidCents: string };

/** A day's accrual over every account, as InterestBooked records it (the COB read it from rm.interest_days). */
export interface DayTotals {
  readonly accounts: number;
  readonly accruedUnits: string;
  readonly bookedCents: number;
}

const UPC = String(UNITS_PER_CENT);

/**
 * The day balances one batch of a rebuild handed over to the next (InterestBatch.handOver): in log order, as the
 * chunks the batches before added, never changed once handed (a batch written again takes them over again). Handing
 * over the chunks, not their balances one by one, keeps a batch's cost its own events' whatever a day's size: a day
 * of a million-customer bank spans about six batches of 10,000 events, and copying every balance carried at each
 * batch copied each money event's balance about three times (about one in two at 300,000 customers).
 */
class HandedDayBalances {
  constructor(
    readonly chunks: readonly (readonly HeldDayBalance[])[],
    readonly size: number,
  ) {}
}

/** Day balances a rebuild's batch hands over at most (about 200 bytes each in memory). */
export const MAX_HANDED_OVER = 500_000;

/**
 * One batch of the interest projection, in log order: the money events between two day events (a segment) become
 * a few set-based statements (the accounts opened, the day balances, the payments), and each day event one
 * statement (the accrual: the accounts moved marked and the day's row; the booking flag; the month's roll). An
 * account's units since its mark are its balance times its kind's rate sums (migration 11, docs/interest.md
 * "Accrued when read"), so no statement writes every account but the month's roll. The order of the statements is the
 * log's, so an accrual sees exactly the events before it — whatever the batch's size (a rebuild's batches hold
 * days). The money events' day balances are held and handed to the accrual of the batch that folds them
 * (HeldDayBalances), never written only to be deleted; those no accrual of the batch folds are written at its end, or
 * in a rebuild's bulk load handed over to the next batch (handOver, takeOver). Every statement is idempotent on its
 * own (see docs/interest.md, "Replayable"):
 *   - a day balance is dated by its event's position against rm.interest_days (the accruals before it), skipped when
 *     an accrual at or after its date is recorded already, and replaces a date's row only with a later event;
 *   - a payment counts once (its transaction id is the key of rm.interest_payments);
 *   - an accrual, a month close apply only when their day / month is not recorded yet, in the same statement.
 */
export class InterestBatch implements BatchWriter {
  private readonly steps: Step[] = [];
  private current: Segment | undefined;
  private readonly seen = new Set<string>();
  /** The day balances the batch before handed over (takeOver), as its chunks: before this batch's events in the log. */
  private readonly carried: (readonly HeldDayBalance[])[] = [];
  /** True once handOver gave away the day balances left: statements() no longer writes them. */
  private handed = false;
  /** The walk of the steps as they stand (walk), kept until a step or a take-over changes them. */
  private walked: Walk | undefined;

  constructor(private readonly maxHandedOver = MAX_HANDED_OVER) {}

  /** False when this event (by position) was added already in this batch. */
  private first(position: string): boolean {
    if (this.seen.has(position)) return false;
    this.seen.add(position);
    this.walked = undefined;
    return true;
  }

  private segment(): Segment {
    if (!this.current) {
      this.current = new Segment();
      this.steps.push({ kind: 'segment', segment: this.current });
    }
    return this.current;
  }

  opened(userId: string, position: string): void {
    if (this.first(position)) this.segment().opened.push(userId);
  }

  money(money: InterestMoney, payment?: InterestPaymentRow): void {
    if (!this.first(money.position)) return;
    const segment = this.segment();
    segment.money.push(money);
    if (payment) segment.payments.push(payment);
  }

  accrued(businessDate: string, savingsRate: number, checkingRate: number, position: string): void {
    if (!this.first(position)) return;
    this.current = undefined;
    this.steps.push({ kind: 'accrued', businessDate, savingsRate, checkingRate, position });
  }

  booked(businessDate: string, totals: DayTotals, position: string): void {
    if (!this.first(position)) return;
    this.current = undefined;
    this.steps.push({ kind: 'booked', businessDate, totals });
  }

  monthClosed(month: string, businessDate: string, paidAccounts: number, paidCents: string, position: string): void {
    if (!this.first(position)) return;
    this.current = undefined;
    this.steps.push({ kind: 'monthClosed', month, businessDate, paidAccounts, paidCents });
  }

  statements(tables: ReadModelTables): Statement[] {
    const { booked, folds, left } = this.walk();
    const out: Statement[] = [];
    for (const step of this.steps) {
      if (step.kind === 'segment') for (const statement of segmentStatements(tables, step.segment)) out.push(statement);
      else if (step.kind === 'accrued') out.push(accrualStatement(tables, step, booked.get(step.businessDate), folds.get(step)!));
      else if (step.kind === 'booked') out.push({ text: `UPDATE ${tables.interestDays} SET booked = true WHERE business_date = $1::date AND NOT booked`, values: [step.businessDate] });
      else out.push(monthCloseStatement(tables, step));
    }
    if (!this.handed && left.size > 0) out.push(dayBalancesStatement(tables, left.chunks.flat()));
    return out;
  }

  /**
   * In a rebuild's bulk load: the day balances no accrual of this batch folds go to the next batch, whose accrual
   * folds them (a day of a large bank spans several batches), instead of into the table and out again. Past
   * MAX_HANDED_OVER they are written here (a log without accruals would otherwise hold them all).
   */
  handOver(): unknown {
    const { left } = this.walk();
    if (left.size === 0 || left.size > this.maxHandedOver) return undefined;
    this.handed = true;
    return left;
  }

  takeOver(handed: unknown): void {
    if (!(handed instanceof HandedDayBalances)) throw new TypeError('The interest batch takes over only the day balances an interest batch handed over');
    for (const chunk of handed.chunks) this.carried.push(chunk);
    this.walked = undefined;
  }

  /**
   * Walks the batch in log order, the day balances held (those taken over first) and handed to the accrual of the
   * batch that folds them. Gives each accrual the day balances it folds, and the day balances left unfolded; done once
   * for handOver and statements() alike (a rebuild asks both), again only when a step or a take-over came since.
   */
  private walk(): Walk {
    if (this.walked) return this.walked;
    // A day booked in this batch (a rebuild's, a projector catching up) gives its accrual the totals the log
    // recorded, so the accrual need not compute them over every account.
    const booked = new Map<string, DayTotals>();
    for (const step of this.steps) if (step.kind === 'booked') booked.set(step.businessDate, step.totals);
    // The day balances of the batch's money events are held here and handed to the accrual of the batch that folds
    // them, instead of written and deleted again; those no accrual of the batch folds are written at its end.
    const folds = new Map<Step, HeldDayBalance[]>();
    let accruedThrough: string | undefined;
    const held = new HeldDayBalances(this.carried);
    for (const step of this.steps) {
      if (step.kind === 'segment') {
        const first = accruedThrough === undefined ? undefined : addDays(accruedThrough, 1);
        for (const money of step.segment.money) held.add(money, first);
      } else if (step.kind === 'accrued') {
        folds.set(step, held.takeThrough(step.businessDate));
        accruedThrough = step.businessDate;
      }
    }
    this.walked = { booked, folds, left: held.takeAll() };
    return this.walked;
  }
}

/** InterestBatch's walk: the totals of the days booked, each accrual's day balances to fold, those left. */
interface Walk {
  readonly booked: ReadonlyMap<string, DayTotals>;
  readonly folds: ReadonlyMap<Step, HeldDayBalance[]>;
  readonly left: HandedDayBalances;
}

/**
 * A money event's day balance held by a batch: `dated` when `businessDate` is its effective date already. Never
 * changed once made: the chunks holding it are shared with the batch that handed them over.
 */
interface HeldDayBalance {
  readonly money: InterestMoney;
  readonly businessDate: string;
  readonly dated: boolean;
}

/**
 * Day balances of a batch's money events, kept in memory, in log order, until an accrual of the batch folds them. An
 * event after an accrual of the batch is dated here as dayBalancesStatement dates it: its business date, or the day
 * after that accrual when that is later. One before the batch's first accrual is not (the last accrual before it is
 * in the table): the accrual that folds it dates it (accrualStatement). Whatever that accrual, an event whose business
 * date is after the accrual's date keeps its business date. Several of an account and date are all kept: the
 * statements keep the latest by log position (an object per event and no map: this runs for every money event).
 */
class HeldDayBalances {
  /** In log order: the chunks carried (shared, never changed), then `own`. */
  private chunks: (readonly HeldDayBalance[])[];
  private own: HeldDayBalance[] = [];

  /** `carried`: the chunks a batch before handed over (takeThrough leaves them as they are). */
  constructor(carried: readonly (readonly HeldDayBalance[])[]) {
    this.chunks = [...carried];
  }

  /** Holds a money event; `first` is the day after the last accrual of the batch before it (none: undefined). */
  add(money: InterestMoney, first: string | undefined): void {
    if (first === undefined) this.own.push({ money, businessDate: money.businessDate, dated: false });
    else this.own.push({ money, businessDate: money.businessDate >= first ? money.businessDate : first, dated: true });
  }

  /**
   * Takes out those an accrual of `date` folds: dated up to it, or undated with a business date up to it. An undated
   * one with a later business date has that date for effective date: it is held on dated.
   */
  takeThrough(date: string): HeldDayBalance[] {
    const out: HeldDayBalance[] = [];
    const kept: HeldDayBalance[] = [];
    for (const chunk of [...this.chunks, this.own]) {
      for (const balance of chunk) {
        if (balance.businessDate <= date) out.push(balance);
        else kept.push(balance.dated ? balance : { ...balance, dated: true });
      }
    }
    this.chunks = [];
    this.own = kept;
    return out;
  }

  /** Every one still held, as chunks in log order (and stops holding them). */
  takeAll(): HandedDayBalances {
    const chunks = this.own.length > 0 ? [...this.chunks, this.own] : this.chunks;
    this.chunks = [];
    this.own = [];
    return new HandedDayBalances(chunks, chunks.reduce((size, chunk) => size + chunk.length, 0));
  }
}

/** A segment's statements but its day balances (statements() holds them). */
function segmentStatements(tables: ReadModelTables, segment: Segment): Statement[] {
  if (segment.empty) return [];
  const out: Statement[] = [];
  if (segment.opened.length > 0) {
    out.push({
      text: `INSERT INTO ${tables.interestAccounts} (user_id, account)
  SELECT u.id, k.account FROM unnest($1::uuid[]) AS u(id) CROSS JOIN (VALUES ('savings'), ('checking')) AS k(account)
ON CONFLICT (user_id, account) DO NOTHING`,
      values: [segment.opened],
    });
  }
  if (segment.payments.length > 0) out.push(paymentsStatement(tables, segment.payments));
  return out;
}

/**
 * The day balances of a segment's money events. Each event's effective date is max(business date, the day after the
 * last accrual recorded before it in the log): by its own position, so an event delivered again dates as it did the
 * first time (business dates only move forward, so the last accrual by position has the latest date). Per account
 * and effective date the balance of the latest event *in the log* is kept: a redelivered older event never hides a
 * newer one of the same batch. A row whose date an accrual has covered already (the batch written again) is not
 * written, and a stored row is replaced only by a later event.
 */
function dayBalancesStatement(tables: ReadModelTables, held: readonly HeldDayBalance[]): Statement {
  const text = `WITH dated AS (
  SELECT m.user_id, m.account,
         greatest(m.business_date, (SELECT i.business_date FROM ${tables.interestDays} i WHERE i.accrued_position < m.position ORDER BY i.accrued_position DESC LIMIT 1) + 1) AS business_date,
         m.balance_cents, m.position
    FROM unnest($1::uuid[], $2::text[], $3::date[], $4::bigint[], $5::text[]) AS m(user_id, account, business_date, balance_cents, position)
), latest AS (
  SELECT DISTINCT ON (user_id, account, business_date) user_id, account, business_date, balance_cents, position
    FROM dated ORDER BY user_id, account, business_date, position DESC
), accrued AS (
  SELECT max(business_date) AS through FROM ${tables.interestDays}
)
INSERT INTO ${tables.interestDayBalances} AS d (user_id, account, business_date, balance_cents, position)
  SELECT l.user_id, l.account, l.business_date, l.balance_cents, l.position FROM latest l CROSS JOIN accrued a
   WHERE a.through IS NULL OR l.business_date > a.through
ON CONFLICT (user_id, account, business_date) DO UPDATE SET balance_cents = EXCLUDED.balance_cents, position = EXCLUDED.position
 WHERE d.position < EXCLUDED.position`;
  return {
    text,
    values: [
      held.map((h) => h.money.userId),
      held.map((h) => h.money.account),
      held.map((h) => h.businessDate),
      held.map((h) => h.money.balanceAfterCents),
      held.map((h) => h.money.position),
    ],
  };
}

/** The payments: each recorded once (by transaction id), its amount added to the account's paid this month. */
function paymentsStatement(tables: ReadModelTables, payments: readonly InterestPaymentRow[]): Statement {
  const text = `WITH paid AS (
  INSERT INTO ${tables.interestPayments} (transaction_id, user_id, account, month, business_date, amount_cents, accrued_units, carry_units)
    SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::date[], $6::bigint[], $7::numeric[], $8::numeric[])
  ON CONFLICT (transaction_id) DO NOTHING
  RETURNING user_id, account, amount_cents
)
UPDATE ${tables.interestAccounts} AS a SET paid_cents = a.paid_cents + p.amount_cents
  FROM (SELECT user_id, account, sum(amount_cents) AS amount_cents FROM paid GROUP BY user_id, account) AS p
 WHERE a.user_id = p.user_id AND a.account = p.account`;
  return {
    text,
    values: [
      payments.map((p) => p.transactionId),
      payments.map((p) => p.userId),
      payments.map((p) => p.account),
      payments.map((p) => p.month),
      payments.map((p) => p.businessDate),
      payments.map((p) => p.amountCents),
      payments.map((p) => p.accruedUnits),
      payments.map((p) => p.carryUnits),
    ],
  };
}

/** Each kind's rates summed over every accrued day (up to the latest; 0 before any): a one-row CTE body. */
const rateSums = (tables: ReadModelTables, upTo: string): string =>
  `SELECT coalesce((SELECT savings_rate_sum FROM ${tables.interestDays} WHERE ${upTo} ORDER BY business_date DESC LIMIT 1), 0) AS savings,
         coalesce((SELECT checking_rate_sum FROM ${tables.interestDays} WHERE ${upTo} ORDER BY business_date DESC LIMIT 1), 0) AS checking`;

/**
 * The accrual of a business date D (docs/interest.md, "Accrued when read"), only when D is not recorded yet, in one
 * statement. The accounts whose balance changed since the last accrual (their day balances up to D) are marked:
 * their old balance's units up to the last accrual go into marked_units, the mark moves to that accrual's rate
 * sum, and the new balance is theirs from D on. Every other account is left as it is: its units grow by the rate
 * sums alone. D's row records its rates and rate sums, and the day's totals: those InterestBooked recorded when this
 * batch holds it, else computed here over the accounts accruing (a read of every account, no write): each accrues
 * max(balance, 0) × its kind's rate, and books the increase of round_half_even(carry + month units) that makes.
 */
function accrualStatement(tables: ReadModelTables, step: Extract<Step, { kind: 'accrued' }>, recorded: DayTotals | undefined, held: readonly HeldDayBalance[]): Statement {
  const values: unknown[] = [step.businessDate, step.savingsRate, step.checkingRate, step.position];
  const param = (value: unknown) => `$${values.push(value)}`;
  const rateOf = (alias: string) => `CASE ${alias}.account WHEN 'savings' THEN $2::integer ELSE $3::integer END`;
  const sumOf = (alias: string) => `CASE ${alias}.account WHEN 'savings' THEN b.savings ELSE b.checking END`;
  const totals = recorded
    ? `SELECT ${param(recorded.accounts)}::integer AS accounts, ${param(recorded.accruedUnits)}::numeric AS units, ${param(recorded.bookedCents)}::bigint AS booked`
    : `SELECT count(*)::integer AS accounts, coalesce(sum(x.units), 0) AS units,
         coalesce(sum(${halfEvenSql('h.q1', 'h.r1', UPC)} - ${halfEvenSql('h.q0', 'h.r0', UPC)}), 0) AS booked
    FROM (SELECT a.carry_units AS carry,
                 a.marked_units + greatest(a.balance_cents, 0)::numeric * (${sumOf('a')} - a.marked_rate_sum) AS before,
                 coalesce(f.balance_cents, a.balance_cents)::numeric * ${rateOf('a')} AS units
            FROM ${tables.interestAccounts} a LEFT JOIN folded f ON f.user_id = a.user_id AND f.account = a.account CROSS JOIN before b
           WHERE (SELECT yes FROM go) AND coalesce(f.balance_cents, a.balance_cents) > 0 AND ${rateOf('a')} > 0) x
    CROSS JOIN LATERAL (SELECT div(x.carry + x.before + x.units, ${UPC}) AS q1, mod(x.carry + x.before + x.units, ${UPC}) AS r1,
                               div(x.carry + x.before, ${UPC}) AS q0, mod(x.carry + x.before, ${UPC}) AS r0) h`;
  // The day balances to fold: every one left is dated after the last accrual (an earlier date is never written),
  // so the range (last accrual, D] of the index by date holds them all, and none an earlier accrual deleted.
  const lastAccrual = `(SELECT max(business_date) FROM ${tables.interestDays} WHERE business_date < $1::date)`;
  const toFold = `business_date > coalesce(${lastAccrual}, '-infinity'::date)
     AND business_date <= $1::date AND (SELECT yes FROM go)`;
  // The batch's own day balances up to D (statements(): never written to the table) join the table's; the latest
  // by date, then by the log, is each account's balance. One logged before the batch's first accrual is dated here:
  // the last accrual before it is the last one recorded before D.
  const folded = held.length === 0
    ? `SELECT DISTINCT ON (user_id, account) user_id, account, balance_cents
    FROM ${tables.interestDayBalances}
   WHERE ${toFold}
   ORDER BY user_id, account, business_date DESC`
    : `SELECT DISTINCT ON (user_id, account) user_id, account, balance_cents
    FROM (SELECT user_id, account, business_date, balance_cents, position FROM ${tables.interestDayBalances} WHERE ${toFold}
          UNION ALL
          SELECT h.user_id, h.account,
                 CASE WHEN h.dated THEN h.business_date
                      ELSE greatest(h.business_date, ${lastAccrual} + 1) END,
                 h.balance_cents, h.position
            FROM unnest(${param(held.map((h) => h.money.userId))}::uuid[], ${param(held.map((h) => h.money.account))}::text[], ${param(held.map((h) => h.businessDate))}::date[],
                        ${param(held.map((h) => h.money.balanceAfterCents))}::bigint[], ${param(held.map((h) => h.money.position))}::text[], ${param(held.map((h) => h.dated))}::boolean[])
                 AS h(user_id, account, business_date, balance_cents, position, dated)
           WHERE (SELECT yes FROM go)) AS d
   ORDER BY user_id, account, business_date DESC, position COLLATE "C" DESC`;
  const text = `WITH go AS (
  SELECT NOT EXISTS (SELECT 1 FROM ${tables.interestDays} WHERE business_date = $1::date) AS yes
), before AS (
  ${rateSums(tables, 'business_date < $1::date')}
), folded AS (
  ${folded}
), marked AS (
  UPDATE ${tables.interestAccounts} a
     SET marked_units = a.marked_units + greatest(a.balance_cents, 0)::numeric * (${sumOf('f')} - a.marked_rate_sum),
         marked_rate_sum = ${sumOf('f')},
         balance_cents = f.balance_cents
    FROM folded f CROSS JOIN before b
   WHERE a.user_id = f.user_id AND a.account = f.account
), folded_away AS (
  DELETE FROM ${tables.interestDayBalances} WHERE ${toFold}
), totals AS (
  ${totals}
)
INSERT INTO ${tables.interestDays} (business_date, savings_rate, checking_rate, savings_rate_sum, checking_rate_sum, accounts, accrued_units, booked_cents, booked, accrued_position)
  SELECT $1::date, $2::integer, $3::integer, b.savings + $2::integer, b.checking + $3::integer, t.accounts, t.units, t.booked, false, $4::text
    FROM before b CROSS JOIN totals t WHERE (SELECT yes FROM go)
ON CONFLICT (business_date) DO NOTHING`;
  return { text, values };
}

/**
 * The month's roll, once (with its rm.interest_months row): every account's month units up to the month's last
 * accrual, carry := carry + month units − paid cents × UNITS_PER_CENT; month units and paid back to 0, the mark at
 * that accrual. An account that accrued nothing, was paid nothing and holds nothing to accrue is left as it is.
 */
function monthCloseStatement(tables: ReadModelTables, step: Extract<Step, { kind: 'monthClosed' }>): Statement {
  const sum = `CASE a.account WHEN 'savings' THEN b.savings ELSE b.checking END`;
  const text = `WITH closed AS (
  INSERT INTO ${tables.interestMonths} (month, business_date, paid_accounts, paid_cents) VALUES ($1::text, $2::date, $3::integer, $4::bigint)
  ON CONFLICT (month) DO NOTHING
  RETURNING month
), before AS (
  ${rateSums(tables, 'business_date <= $2::date')}
)
UPDATE ${tables.interestAccounts} AS a
   SET carry_units = a.carry_units + a.marked_units + greatest(a.balance_cents, 0)::numeric * (${sum} - a.marked_rate_sum) - a.paid_cents::numeric * ${UPC},
       marked_units = 0, marked_rate_sum = ${sum}, paid_cents = 0
  FROM before b
 WHERE EXISTS (SELECT 1 FROM closed)
   AND (a.marked_units <> 0 OR a.paid_cents <> 0 OR (a.balance_cents > 0 AND a.marked_rate_sum <> ${sum}))`;
  return { text, values: [step.month, step.businessDate, step.paidAccounts, step.paidCents] };
}

import { UNITS_PER_CENT } from '@bank/domain';
import type { Statement } from '../../changes/changeStatements';
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
  | { readonly kind: 'booked'; readonly businessDate: string }
  | { readonly kind: 'monthClosed'; readonly month: string; readonly businessDate: string; readonly paidAccounts: number; readonly paidCents: string };

const UPC = String(UNITS_PER_CENT);

/**
 * One batch of the interest projection, in log order: the money events between two day events (a segment) become
 * a few set-based statements (the accounts opened, the day balances, the payments), and each day event one
 * statement (the accrual of every account, the booking flag, the month's roll). The order of the statements is the
 * log's, so an accrual sees exactly the events before it — whatever the batch's size (a rebuild's batches hold
 * months). Every statement is idempotent on its own (see docs/interest.md, "Replayable"):
 *   - a day balance is dated by its event's position against rm.interest_days (the accruals before it), skipped when
 *     an accrual at or after its date is recorded already, and replaces a date's row only with a later event;
 *   - a payment counts once (its transaction id is the key of rm.interest_payments);
 *   - an accrual, a month close apply only when their day / month is not recorded yet, in the same statement.
 */
export class InterestBatch implements BatchWriter {
  private readonly steps: Step[] = [];
  private current: Segment | undefined;
  private readonly seen = new Set<string>();

  /** False when this event (by position) was added already in this batch. */
  private first(position: string): boolean {
    if (this.seen.has(position)) return false;
    this.seen.add(position);
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

  booked(businessDate: string, position: string): void {
    if (!this.first(position)) return;
    this.current = undefined;
    this.steps.push({ kind: 'booked', businessDate });
  }

  monthClosed(month: string, businessDate: string, paidAccounts: number, paidCents: string, position: string): void {
    if (!this.first(position)) return;
    this.current = undefined;
    this.steps.push({ kind: 'monthClosed', month, businessDate, paidAccounts, paidCents });
  }

  statements(tables: ReadModelTables): Statement[] {
    const out: Statement[] = [];
    for (const step of this.steps) {
      if (step.kind === 'segment') out.push(...segmentStatements(tables, step.segment));
      else if (step.kind === 'accrued') out.push(accrualStatement(tables, step));
      else if (step.kind === 'booked') out.push({ text: `UPDATE ${tables.interestDays} SET booked = true WHERE business_date = $1::date AND NOT booked`, values: [step.businessDate] });
      else out.push(monthCloseStatement(tables, step));
    }
    return out;
  }
}

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
  if (segment.money.length > 0) out.push(dayBalancesStatement(tables, segment.money));
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
function dayBalancesStatement(tables: ReadModelTables, money: readonly InterestMoney[]): Statement {
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
      money.map((m) => m.userId),
      money.map((m) => m.account),
      money.map((m) => m.businessDate),
      money.map((m) => m.balanceAfterCents),
      money.map((m) => m.position),
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

/**
 * The accrual of a business date D, for every account at once (one statement, set-based): the day balances up to D
 * folded into the end-of-day balance; each positive balance accrues balance × its kind's rate units; the month's
 * units grow by that, and booked_cents becomes round_half_even(carry + month units); the day's totals (accounts
 * accruing, units, the increase of the cents booked) go into rm.interest_days — all only when D is not recorded yet.
 */
function accrualStatement(tables: ReadModelTables, step: Extract<Step, { kind: 'accrued' }>): Statement {
  const text = `WITH go AS (
  SELECT NOT EXISTS (SELECT 1 FROM ${tables.interestDays} WHERE business_date = $1::date) AS yes
), folded AS (
  SELECT DISTINCT ON (user_id, account) user_id, account, balance_cents
    FROM ${tables.interestDayBalances} WHERE business_date <= $1::date
   ORDER BY user_id, account, business_date DESC
), source AS (
  SELECT a.user_id, a.account, coalesce(f.balance_cents, a.balance_cents) AS balance_cents, a.booked_cents,
         CASE a.account WHEN 'savings' THEN $2::integer ELSE $3::integer END AS rate
    FROM ${tables.interestAccounts} a LEFT JOIN folded f ON f.user_id = a.user_id AND f.account = a.account
   WHERE (SELECT yes FROM go)
     AND (f.user_id IS NOT NULL OR (a.balance_cents > 0 AND CASE a.account WHEN 'savings' THEN $2::integer ELSE $3::integer END > 0))
), accrual AS (
  SELECT s.*, CASE WHEN s.balance_cents > 0 THEN s.balance_cents::numeric * s.rate ELSE 0 END AS units FROM source s
), accrued AS (
  UPDATE ${tables.interestAccounts} a
     SET balance_cents = c.balance_cents,
         month_units = a.month_units + c.units,
         booked_cents = ${tables.schema}.round_half_even(a.carry_units + a.month_units + c.units, ${UPC})
    FROM accrual c
   WHERE a.user_id = c.user_id AND a.account = c.account
  RETURNING c.units, a.booked_cents - c.booked_cents AS booked
), folded_away AS (
  DELETE FROM ${tables.interestDayBalances} WHERE business_date <= $1::date AND (SELECT yes FROM go)
)
INSERT INTO ${tables.interestDays} (business_date, savings_rate, checking_rate, accounts, accrued_units, booked_cents, booked, accrued_position)
  SELECT $1::date, $2::integer, $3::integer, count(*) FILTER (WHERE units > 0), coalesce(sum(units), 0), coalesce(sum(booked), 0), false, $4::text FROM accrued
ON CONFLICT (business_date) DO NOTHING`;
  return { text, values: [step.businessDate, step.savingsRate, step.checkingRate, step.position] };
}

/**
 * The month's roll, once (with its rm.interest_months row): for every account, carry := carry + month units − paid
 * cents × UNITS_PER_CENT; month units, booked and paid back to 0.
 */
function monthCloseStatement(tables: ReadModelTables, step: Extract<Step, { kind: 'monthClosed' }>): Statement {
  const text = `WITH closed AS (
  INSERT INTO ${tables.interestMonths} (month, business_date, paid_accounts, paid_cents) VALUES ($1::text, $2::date, $3::integer, $4::bigint)
  ON CONFLICT (month) DO NOTHING
  RETURNING month
)
UPDATE ${tables.interestAccounts} AS a
   SET carry_units = a.carry_units + a.month_units - a.paid_cents::numeric * ${UPC}, month_units = 0, booked_cents = 0, paid_cents = 0
 WHERE EXISTS (SELECT 1 FROM closed) AND (a.month_units <> 0 OR a.booked_cents <> 0 OR a.paid_cents <> 0)`;
  return { text, values: [step.month, step.businessDate, step.paidAccounts, step.paidCents] };
}

import { bookedCentsOf, type AccountKind } from '@bank/domain';
import { inTransaction } from '@bank/platform';
import type pg from 'pg';

/** One interest payment of a customer: an AccountCredited described 'Interest' (rm.interest_payments). */
export interface InterestPaymentRow {
  readonly transactionId: string;
  readonly account: AccountKind;
  /** The month it pays, YYYY-MM. */
  readonly month: string;
  /** The business date it was paid on (the month's last day). */
  readonly date: string;
  readonly amountCents: bigint;
}

/** A customer's interest in one year, in cents (read models rm.interest_accrued and rm.interest_payments). */
export interface InterestSummary {
  readonly year: number;
  /** Σ accounts: the month-to-date exact accrual plus the carry, rounded half to even (what the month-end would pay now). */
  readonly accruedThisMonthCents: bigint;
  readonly accruedThisMonthByAccount: Readonly<Record<AccountKind, bigint>>;
  /** Σ of the year's payments. */
  readonly paidThisYearCents: bigint;
  /** The year's payments, oldest first (savings before checking on a date). */
  readonly payments: readonly InterestPaymentRow[];
}

/** A year's first and last dates. */
export function yearBounds(year: number): { readonly from: string; readonly to: string } {
  const text = String(year).padStart(4, '0');
  return { from: `${text}-01-01`, to: `${text}-12-31` };
}

/**
 * The interest of `userId` in `year`: the open month's accrual of each account, not paid yet (never below zero: a
 * negative carry of under half a cent rounds to 0) and the year's payments. A customer the interest read models do not know yet
 * (no accrual so far) has nothing accrued and nothing paid.
 */
export async function readInterestSummary(pool: pg.Pool, userId: string, year: number): Promise<InterestSummary> {
  const { from, to } = yearBounds(year);
  // One snapshot (REPEATABLE READ): a month end's payments and its accounts' rows are read as of one instant.
  const { accounts, payments } = await inTransaction(
    pool,
    async (client) => {
      const accounts = await client.query<{ account: AccountKind; month_units: string; carry_units: string; paid_cents: string }>(
        `SELECT account, round(month_units)::text AS month_units, round(carry_units)::text AS carry_units, paid_cents::text AS paid_cents
           FROM rm.interest_accrued WHERE user_id = $1`,
        [userId],
      );
      const payments = await client.query<{ transaction_id: string; account: AccountKind; month: string; business_date: string; amount_cents: string }>(
        `SELECT transaction_id::text AS transaction_id, account, month, business_date::text AS business_date, amount_cents::text AS amount_cents
           FROM rm.interest_payments
          WHERE user_id = $1 AND business_date BETWEEN $2::date AND $3::date
          ORDER BY business_date, account DESC, transaction_id`,
        [userId, from, to],
      );
      return { accounts, payments };
    },
    'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
  );
  const byAccount: Record<AccountKind, bigint> = { savings: 0n, checking: 0n };
  for (const row of accounts.rows) {
    // What the month's payment has not paid yet (paid_cents is 0 but between a month end's payments and its close).
    const owed = bookedCentsOf(BigInt(row.carry_units), BigInt(row.month_units)) - BigInt(row.paid_cents);
    byAccount[row.account] = owed > 0n ? owed : 0n;
  }
  const rows: InterestPaymentRow[] = payments.rows.map((row) => ({
    transactionId: row.transaction_id,
    account: row.account,
    month: row.month,
    date: row.business_date,
    amountCents: BigInt(row.amount_cents),
  }));
  return {
    year,
    accruedThisMonthCents: byAccount.savings + byAccount.checking,
    accruedThisMonthByAccount: byAccount,
    paidThisYearCents: rows.reduce((sum, row) => sum + row.amountCents, 0n),
    payments: rows,
  };
}

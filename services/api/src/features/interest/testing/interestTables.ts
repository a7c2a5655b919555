import type pg from 'pg';

/**
 * The interest read models (rm.interest_accounts, rm.interest_payments) as the projector's migration creates them,
 * created here only when that migration has not (so that the routes' tests run on their own rows).
 */
export async function ensureInterestTablesForTest(pool: pg.Pool): Promise<void> {
  await pool.query(`
    CREATE TABLE IF NOT EXISTS rm.interest_accounts (
      user_id uuid NOT NULL, account text NOT NULL, balance_cents bigint NOT NULL DEFAULT 0, month_units numeric NOT NULL DEFAULT 0,
      carry_units numeric NOT NULL DEFAULT 0, booked_cents bigint NOT NULL DEFAULT 0, paid_cents bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (user_id, account));
    CREATE TABLE IF NOT EXISTS rm.interest_payments (
      transaction_id uuid PRIMARY KEY, user_id uuid NOT NULL, account text NOT NULL, month text NOT NULL, business_date date NOT NULL,
      amount_cents bigint NOT NULL, accrued_units numeric NOT NULL, carry_units numeric NOT NULL);`);
}

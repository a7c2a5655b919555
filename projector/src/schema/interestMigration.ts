import { schemaIdent } from './readModelSchema';

/**
 * Savings interest (issue 29, docs/interest.md): the interest-payable subledger, kept by the interest projection
 * (projections/interest/). Units: `*_units` are exact accruals in 1/365,000,000 cent (numeric: sums never round),
 * `*_cents` integer cents, rates in ten-thousandths of a percent.
 *
 * - interest_accounts: one row per customer and account kind: the end-of-day balance at the last accrual, the
 *   month's exact accrual (month_units), the carry from the months before (carry_units, |carry| ≤ half a cent),
 *   the cents booked this month (booked_cents = round_half_even(carry + month)) and paid this month (paid_cents).
 *   fillfactor 70: an accrual rewrites every accruing row, and free room on the page keeps those updates HOT.
 * - interest_day_balances: the balance after the last money event of each effective date not yet accrued; the
 *   accrual of D folds the rows ≤ D into interest_accounts.balance_cents and deletes them. `position` (the event's)
 *   keeps the last event of a date whatever order a batch is written in.
 * - interest_days: one row per accrued business date (the rates, the totals, whether InterestBooked recorded it;
 *   accrued_position: InterestAccrued's position, which dates the money events after it).
 * - interest_months: the months paid and closed; interest_payments: every payment (its AccountCredited).
 *
 * round_half_even(units, per): units ÷ per (per > 0) rounded to the nearest integer, a tie to the even one; exact
 * (div and mod of numeric never round).
 *
 * On a bank that exists already, every account gets its row with its balance now (every money event so far falls
 * on or before the first accrual).
 */
export const interestTables = (schemaName: string): string => {
  const s = schemaIdent(schemaName);
  return `
CREATE FUNCTION ${s}.round_half_even(units numeric, per numeric) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN 2 * abs(mod(units, per)) < per THEN div(units, per)
    WHEN 2 * abs(mod(units, per)) > per THEN div(units, per) + sign(units)
    WHEN mod(div(units, per), 2) = 0 THEN div(units, per)
    ELSE div(units, per) + sign(units)
  END
$fn$;

CREATE TABLE ${s}.interest_accounts (
  user_id uuid NOT NULL,
  account text NOT NULL CHECK (account IN ('savings', 'checking')),
  balance_cents bigint NOT NULL DEFAULT 0,
  month_units numeric NOT NULL DEFAULT 0,
  carry_units numeric NOT NULL DEFAULT 0,
  booked_cents bigint NOT NULL DEFAULT 0,
  paid_cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, account)
) WITH (fillfactor = 70);

CREATE TABLE ${s}.interest_day_balances (
  user_id uuid NOT NULL,
  account text NOT NULL,
  business_date date NOT NULL,
  balance_cents bigint NOT NULL,
  position text COLLATE "C" NOT NULL,
  PRIMARY KEY (user_id, account, business_date)
);

CREATE TABLE ${s}.interest_days (
  business_date date PRIMARY KEY,
  savings_rate integer NOT NULL,
  checking_rate integer NOT NULL,
  accounts integer NOT NULL,
  accrued_units numeric NOT NULL,
  booked_cents bigint NOT NULL,
  booked boolean NOT NULL DEFAULT false,
  accrued_position text COLLATE "C" NOT NULL
);

CREATE TABLE ${s}.interest_months (
  month text PRIMARY KEY,
  business_date date NOT NULL,
  paid_accounts integer NOT NULL,
  paid_cents bigint NOT NULL
);

CREATE TABLE ${s}.interest_payments (
  transaction_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  account text NOT NULL,
  month text NOT NULL,
  business_date date NOT NULL,
  amount_cents bigint NOT NULL,
  accrued_units numeric NOT NULL,
  carry_units numeric NOT NULL
);
CREATE INDEX interest_payments_user_idx ON ${s}.interest_payments (user_id, business_date);

INSERT INTO ${s}.interest_accounts (user_id, account, balance_cents)
  SELECT user_id, 'savings', savings_cents FROM ${s}.accounts
  UNION ALL
  SELECT user_id, 'checking', checking_cents FROM ${s}.accounts;`;
};

/**
 * Migration 9: interest_days by accrued_position. A money event is dated by the last accrual before its own position
 * (a redelivered event dates as it did the first time): one index probe per event instead of a scan of the days.
 */
export const INTEREST_DAYS_BY_POSITION_INDEX = 'interest_days_accrued_position_idx';

export const interestDaysByPosition = (schemaName: string): string =>
  `CREATE UNIQUE INDEX ${INTEREST_DAYS_BY_POSITION_INDEX} ON ${schemaIdent(schemaName)}.interest_days (accrued_position);`;

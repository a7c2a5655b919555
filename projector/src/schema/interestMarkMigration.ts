import { UNITS_PER_CENT } from '@bank/domain';
import { halfEvenSql } from './halfEvenSql';
import { schemaIdent } from './readModelSchema';

/** The view of every account's interest as of the latest accrual (what rm.interest_accounts held before migration 11). */
export const INTEREST_ACCRUED_VIEW = 'interest_accrued';

/** interest_day_balances by date: an accrual reads and deletes the rows after the last accrual up to its date. */
export const INTEREST_DAY_BALANCES_BY_DATE_INDEX = 'interest_day_balances_date_idx';

/**
 * Migration 11: the accrual stops writing every account every day (docs/interest.md, "Accrued when read").
 *
 * Before it, `InterestAccrued(D)` updated the month's units and booked cents of every account with a balance: a
 * rebuild of a bank of a million accounts rewrote a million rows per business day, and that update was the largest
 * cost of the rebuild. An account's balance changes on few days, and between two changes its accrual is its balance
 * times the sum of its kind's daily rates. So:
 *
 * - interest_days gets `savings_rate_sum` and `checking_rate_sum`: each kind's rates summed over every accrued day
 *   up to and including this one;
 * - interest_accounts keeps `marked_units` (was `month_units`): the month's units up to the accrual whose rate
 *   sum is `marked_rate_sum`; from there on, the account has accrued `max(balance, 0) × (rate sum now −
 *   marked_rate_sum)` more. An accrual moves the mark only of the accounts whose balance it folds; a month close
 *   moves every accruing account's mark as it rolls the carry;
 * - `booked_cents` is gone from the table: it is `round_half_even(carry + month units)` at any moment, computed by
 *   the view `interest_accrued` (the rounding written out, halfEvenSql.ts), which gives every reader the old
 *   table's columns (month_units, booked_cents as of the latest accrual). The column is dropped, not left
 *   unwritten, so that a reader of the old code fails loudly instead of reading a stale figure, and `month_units`
 *   is renamed for the same reason (its meaning changed).
 *
 * On a bank that has accrued already, every account's units count through the latest accrual (the old rule wrote
 * them every day), so its mark is that day's rate sum.
 *
 * interest_day_balances gets an index by date: the accrual of D reads and deletes the rows dated after the last
 * accrual up to D (every row left is dated after the last accrual), a range of that index, where it scanned the
 * table, with every row an accrual before it deleted and no vacuum has removed yet (a rebuild's load deletes each
 * day's rows a moment after writing them).
 */
export const interestAccrualMarks = (schemaName: string): string => {
  const s = schemaIdent(schemaName);
  return `
ALTER TABLE ${s}.interest_days ADD COLUMN savings_rate_sum bigint, ADD COLUMN checking_rate_sum bigint;
UPDATE ${s}.interest_days d SET savings_rate_sum = c.savings, checking_rate_sum = c.checking
  FROM (SELECT business_date, sum(savings_rate) OVER w AS savings, sum(checking_rate) OVER w AS checking
          FROM ${s}.interest_days WINDOW w AS (ORDER BY business_date)) c
 WHERE c.business_date = d.business_date;
ALTER TABLE ${s}.interest_days ALTER COLUMN savings_rate_sum SET NOT NULL, ALTER COLUMN checking_rate_sum SET NOT NULL;

ALTER TABLE ${s}.interest_accounts RENAME COLUMN month_units TO marked_units;
ALTER TABLE ${s}.interest_accounts ADD COLUMN marked_rate_sum bigint NOT NULL DEFAULT 0;
UPDATE ${s}.interest_accounts a
   SET marked_rate_sum = CASE a.account WHEN 'savings' THEN l.savings_rate_sum ELSE l.checking_rate_sum END
  FROM (SELECT savings_rate_sum, checking_rate_sum FROM ${s}.interest_days ORDER BY business_date DESC LIMIT 1) l;
ALTER TABLE ${s}.interest_accounts DROP COLUMN booked_cents;

CREATE INDEX ${INTEREST_DAY_BALANCES_BY_DATE_INDEX} ON ${s}.interest_day_balances (business_date);

CREATE VIEW ${s}.${INTEREST_ACCRUED_VIEW} AS
SELECT a.user_id, a.account, a.balance_cents, m.month_units, a.carry_units,
       ${halfEvenSql('h.q', 'h.r', String(UNITS_PER_CENT))} AS booked_cents, a.paid_cents
  FROM ${s}.interest_accounts a
  CROSS JOIN (SELECT coalesce((SELECT savings_rate_sum FROM ${s}.interest_days ORDER BY business_date DESC LIMIT 1), 0) AS savings,
                     coalesce((SELECT checking_rate_sum FROM ${s}.interest_days ORDER BY business_date DESC LIMIT 1), 0) AS checking) latest
  CROSS JOIN LATERAL (
    SELECT a.marked_units + greatest(a.balance_cents, 0)::numeric
             * (CASE a.account WHEN 'savings' THEN latest.savings ELSE latest.checking END - a.marked_rate_sum) AS month_units
  ) m
  CROSS JOIN LATERAL (SELECT div(a.carry_units + m.month_units, ${UNITS_PER_CENT}) AS q, mod(a.carry_units + m.month_units, ${UNITS_PER_CENT}) AS r) h;`;
};

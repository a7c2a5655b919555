import type { ProjectionHandlers } from '../projection';

/**
 * The businessDays stream: the calendar's start and each day close, into rm.business_date (one row, made by the
 * migration) and rm.ledger_days. Rare events: one idempotent statement each, in event order (ProjectionDb.execute).
 */
export const businessDayHandlers: ProjectionHandlers = {
  BusinessCalendarStarted(event, db) {
    const d = event.data;
    db.execute(
      `INSERT INTO ${db.tables.businessDate} (id, first_date, mode) VALUES (1, $1::date, $2::text)
       ON CONFLICT (id) DO UPDATE SET first_date = EXCLUDED.first_date, mode = EXCLUDED.mode`,
      [d.firstDate, d.mode],
    );
  },
  BusinessDayClosed(event, db) {
    const d = event.data;
    db.execute(
      `INSERT INTO ${db.tables.ledgerDays} (business_date, closed_at, through_position, total_debits_cents, total_credits_cents, balanced,
         journal_hash, line_count, accounts, recorded_at)
       VALUES ($1::date, $2::timestamptz, $3::text, $4::numeric, $5::numeric, $6::boolean, $7::text, $8::integer, $9::jsonb, $10::timestamptz)
       ON CONFLICT (business_date) DO NOTHING`,
      [d.businessDate, d.closedAt, d.throughPosition, d.totalDebitsCents, d.totalCreditsCents, d.balanced, d.journalHash, d.lineCount, JSON.stringify(d.accounts), event.created],
    );
    // GREATEST ignores NULL: the first close sets it; a close applied again never moves it back.
    db.execute(
      `INSERT INTO ${db.tables.businessDate} AS b (id, last_closed) VALUES (1, $1::date)
       ON CONFLICT (id) DO UPDATE SET last_closed = GREATEST(b.last_closed, EXCLUDED.last_closed)`,
      [d.businessDate],
    );
  },
};

import { businessDayClosedSchema, type StoredAccountTotals } from '@bank/domain';
import { parsePosition, type Position } from '@bank/eventstore';
import type { Queryable } from './ledgerTotalsQuery';

export interface DayCloseStart {
  readonly businessDate: string;
  readonly closedAt: Date;
  /** The close covers every event up to here (inclusive); undefined: the log was empty when the day closed. */
  readonly throughPosition: Position | undefined;
  /** The cumulative totals of every account at `throughPosition`, as BusinessDayClosed records them. */
  readonly accounts: readonly StoredAccountTotals[];
}

interface CloseRow {
  /** Not named business_date: ORDER BY would sort that text output instead of walking the key. */
  day: string;
  closed_at: Date;
  through_position: string;
  accounts: unknown;
}

/**
 * The latest day close recorded at or before `at` (rm.ledger_days), undefined when none is: closed at or before it
 * by its own clock, and recorded by the log at or before it (a close covers the log as it stood when recorded;
 * ledgerDaysRecordedMigration.ts). Closes are recorded in business-date order, so the newest such date is the one
 * (the primary key, read backwards). A close the projector has not applied yet only makes the replay start from
 * the one before.
 */
export async function latestCloseAtOrBefore(db: Queryable, at: Date): Promise<DayCloseStart | undefined> {
  const { rows } = await db.query<CloseRow>(
    `SELECT business_date::text AS day, closed_at, through_position, accounts
       FROM rm.ledger_days WHERE closed_at <= $1 AND recorded_at <= $1 ORDER BY business_date DESC LIMIT 1`,
    [at],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    businessDate: row.day,
    closedAt: row.closed_at,
    throughPosition: row.through_position === '' ? undefined : parsePosition(row.through_position),
    accounts: businessDayClosedSchema.shape.accounts.parse(row.accounts),
  };
}

/**
 * The position of the first day close (in business-date order) whose stated instant and record are both later than
 * `instant`, undefined when none is: the log as it stood then. Called with the instant asked for plus twice the
 * clock margin, it bounds a replay's read by position: an event the log has after that close's `throughPosition`
 * was appended after the close read the log's head, so it was recorded no earlier than the margin before the close,
 * past the instant asked for (the second margin covers the moments between the close reading the head and stamping
 * its instants).
 */
export async function firstCloseAfter(db: Queryable, instant: Date): Promise<Position | undefined> {
  const { rows } = await db.query<{ through_position: string }>(
    `SELECT through_position FROM rm.ledger_days WHERE closed_at > $1 AND recorded_at > $1 ORDER BY business_date LIMIT 1`,
    [instant],
  );
  const through = rows[0]?.through_position;
  return through ? parsePosition(through) : undefined;
}

import { bigCentsToDollars } from '@bank/domain';
import { z } from 'zod';
import type { Queryable } from './ledgerTotalsQuery';

/** The key of the day closes' list (newest first): the business date of the page's last close. */
export const dayKey = z.object({ businessDate: z.iso.date() });
export type DayKey = z.output<typeof dayKey>;

/** A day close of GET /audit/ledger/days (dollars). */
export interface LedgerDayJson {
  readonly businessDate: string;
  readonly closedAt: string;
  readonly totalDebits: number;
  readonly totalCredits: number;
  readonly balanced: boolean;
  readonly journalHash: string;
}

interface DayRow {
  /** The date as text (an output named business_date would make ORDER BY sort the text, not walk the key). */
  day: string;
  closed_at: Date;
  total_debits: string;
  total_credits: string;
  balanced: boolean;
  journal_hash: string;
}

/** The day closes before `after` (all without it), newest first, `limit` at most (rm.ledger_days, by its primary key). */
export async function queryDays(db: Queryable, limit: number, after?: DayKey): Promise<LedgerDayJson[]> {
  const { rows } = await db.query<DayRow>(
    `SELECT business_date::text AS day, closed_at, total_debits_cents::text AS total_debits, total_credits_cents::text AS total_credits,
            balanced, journal_hash
       FROM rm.ledger_days ${after ? 'WHERE business_date < $2::date' : ''} ORDER BY business_date DESC LIMIT $1`,
    after ? [limit, after.businessDate] : [limit],
  );
  return rows.map((row) => ({
    businessDate: row.day,
    closedAt: row.closed_at.toISOString(),
    totalDebits: bigCentsToDollars(BigInt(row.total_debits)),
    totalCredits: bigCentsToDollars(BigInt(row.total_credits)),
    balanced: row.balanced,
    journalHash: row.journal_hash,
  }));
}

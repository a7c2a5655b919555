import { centsToDollars, type AccountKind, type LedgerSide } from '@bank/domain';
import { parsePosition, type EventStore } from '@bank/eventstore';
import { z } from 'zod';
import type { Queryable } from './ledgerTotalsQuery';

/** What an account's entries are filtered by (dates are business dates, both inclusive). */
export interface EntryFilter {
  readonly accountKey: string;
  readonly from?: string;
  readonly to?: string;
  readonly customerId?: string;
}

/** The key of an entry in the list (log order): the event's position (formatPosition) and the line's number. */
export const entryKey = z.object({ position: z.string().regex(/^\d{20}:\d{20}$/), lineNo: z.number().int().min(0).max(32_767) });
export type EntryKey = z.output<typeof entryKey>;

export interface EntryRow {
  position: string;
  line_no: number;
  event_id: string;
  recorded_at: Date;
  business_date: string;
  side: LedgerSide;
  amount_cents: string;
  customer_id: string | null;
  account_type: AccountKind | null;
  transfer_id: string | null;
  actor_id: string | null;
  description: string;
}

/** A journal line of GET /audit/ledger/accounts/:key/entries (dollars; `position` as the event store shows it). */
export interface LedgerEntryJson {
  readonly position: string;
  readonly eventId: string;
  readonly at: string;
  readonly businessDate: string;
  readonly side: LedgerSide;
  readonly amount: number;
  readonly customerId?: string;
  readonly account?: AccountKind;
  readonly transferId?: string;
  readonly actorId?: string;
  readonly description: string;
}

export function entryKeyOf(row: EntryRow): EntryKey {
  return { position: row.position, lineNo: row.line_no };
}

export function ledgerEntryJson(store: Pick<EventStore, 'positionToken'>, row: EntryRow): LedgerEntryJson {
  return {
    position: store.positionToken(parsePosition(row.position)),
    eventId: row.event_id,
    at: row.recorded_at.toISOString(),
    businessDate: row.business_date,
    side: row.side,
    amount: centsToDollars(Number(row.amount_cents)),
    ...(row.customer_id ? { customerId: row.customer_id } : {}),
    ...(row.account_type ? { account: row.account_type } : {}),
    ...(row.transfer_id ? { transferId: row.transfer_id } : {}),
    ...(row.actor_id ? { actorId: row.actor_id } : {}),
    description: row.description,
  };
}

/**
 * One page of an account's journal lines in log order (rm.journal_lines), after `after`: `limit` rows at most. The
 * account's lines are read by its (account_key, position) index, a customer's by (customer_id, position).
 */
export async function queryEntries(db: Queryable, filter: EntryFilter, limit: number, after?: EntryKey): Promise<EntryRow[]> {
  const values: unknown[] = [filter.accountKey];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const where = ['account_key = $1'];
  if (filter.from) where.push(`business_date >= ${param(filter.from)}::date`);
  if (filter.to) where.push(`business_date <= ${param(filter.to)}::date`);
  if (filter.customerId) where.push(`customer_id = ${param(filter.customerId)}::uuid`);
  if (after) where.push(`(position, line_no) > (${param(after.position)}, ${param(after.lineNo)}::smallint)`);
  const { rows } = await db.query<EntryRow>(
    `SELECT position, line_no, event_id, recorded_at, business_date::text AS business_date, side, amount_cents::text AS amount_cents,
            customer_id, account_type, transfer_id, actor_id, description
       FROM rm.journal_lines WHERE ${where.join(' AND ')} ORDER BY position, line_no LIMIT ${param(limit)}`,
    values,
  );
  return rows;
}

/** Every line of the filter from `after` on, a page at a time (keyset reads: no transaction held open meanwhile). */
export async function* allEntries(db: Queryable, filter: EntryFilter, pageSize: number, after?: EntryKey): AsyncGenerator<EntryRow[]> {
  let key = after;
  for (;;) {
    const rows = await queryEntries(db, filter, pageSize, key);
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    key = entryKeyOf(rows[rows.length - 1]!);
  }
}

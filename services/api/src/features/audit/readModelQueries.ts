import { parsePosition, type EventStore } from '@bank/eventstore';
import { isUuid } from '@bank/platform';
import type pg from 'pg';
import { z } from 'zod';
import { cursorInstant, cursorInstantSql } from '../../http/keysetPage';
import { customerSearchSql } from '../users/customerSearch';
import { changesOf, maskSecrets, summarize } from './presentEvents';

/** A customer as the auditors' search lists them (GET /audit/users?search). */
export interface AuditUserRow {
  readonly _id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly accountNumber: string;
  /** Closed customers stay findable: their history is kept for auditors. */
  readonly isClosed: boolean;
}

/** The key of the auditors' search order (open first, then by name, then id): what its cursor holds. */
export const auditUserKey = z.object({
  closed: z.boolean(),
  lastName: z.string().max(500),
  firstName: z.string().max(500),
  id: z.string().refine(isUuid),
});
export type AuditUserKey = z.output<typeof auditUserKey>;

export interface AuditUserListRow {
  readonly user: AuditUserRow;
  readonly key: AuditUserKey;
}

/**
 * Customers whose name, e-mail, phone or account number contains the text (closed ones included; see
 * customerSearchSql for the indexes), `limit` rows after the key `after`.
 */
export async function searchCustomers(pool: pg.Pool, search: string, limit = 50, after?: AuditUserKey): Promise<AuditUserListRow[]> {
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const where = [`role = 'customer'`, customerSearchSql('u', search, param)];
  if (after) {
    where.push(
      `(u.is_closed, u.last_name, u.first_name, u.id) > (${param(after.closed)}::boolean, ${param(after.lastName)}::text, ${param(after.firstName)}::text, ${param(after.id)}::uuid)`,
    );
  }
  const result = await pool.query<{
    id: string;
    first_name: string;
    last_name: string;
    email: string;
    account_number: string;
    is_closed: boolean;
  }>(
    `SELECT u.id, u.first_name, u.last_name, u.email, u.account_number, u.is_closed FROM rm.users u
      WHERE ${where.join(' AND ')}
      ORDER BY u.is_closed, u.last_name, u.first_name, u.id LIMIT ${param(limit)}`,
    values,
  );
  return result.rows.map((row) => ({
    user: {
      _id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      accountNumber: row.account_number,
      isClosed: row.is_closed,
    },
    key: { closed: row.is_closed, lastName: row.last_name, firstName: row.first_name, id: row.id },
  }));
}

/** The key of the staff log's order (newest first, then log position): what its cursor holds. */
export const staffLogKey = z.object({ at: cursorInstant, position: z.string().regex(/^\d{20}:\d{20}$/) });
export type StaffLogKey = z.output<typeof staffLogKey>;

export interface StaffLogQuery {
  /** A staff member's id or e-mail. */
  readonly actor?: string;
  readonly type?: string;
  readonly from?: Date;
  readonly to?: Date;
  readonly limit: number;
  /** Legacy `?offset` (bounded): a cursor is the way to page. */
  readonly offset?: number;
  readonly after?: StaffLogKey | undefined;
}

/** One staff action (GET /audit/log). Before/after hold only the values the action changed (money in dollars). */
export interface StaffLogEntry {
  readonly _id: string;
  readonly time: string;
  readonly actor: { readonly id: string | null; readonly role: string | null; readonly email: string | null };
  readonly action: string;
  readonly userId: string | null;
  readonly targetId: string | null;
  readonly stream: string;
  /** Position token of the event (as in X-Event-Position). */
  readonly position: string | null;
  readonly summary: string;
  readonly before: Record<string, unknown> | null;
  readonly after: Record<string, unknown> | null;
  /** The event's data as recorded, secrets masked. */
  readonly details: Record<string, unknown>;
}


function token(store: Pick<EventStore, 'positionToken'>, formatted: string | null): string | null {
  if (!formatted) return null;
  try {
    return store.positionToken(parsePosition(formatted));
  } catch {
    return formatted;
  }
}

export interface StaffLogRow {
  readonly entry: StaffLogEntry;
  readonly key: StaffLogKey;
}

/**
 * Staff actions from rm.staff_audit_log, newest first (at, then position, descending; a position is one event's,
 * unique in the log). Keyset `(at, position) < (…)`: the index condition of staff_audit_log_at_idx.
 */
export async function queryStaffLog(pool: pg.Pool, store: Pick<EventStore, 'positionToken'>, query: StaffLogQuery): Promise<StaffLogRow[]> {
  const where: string[] = [];
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  if (query.actor) {
    where.push(
      isUuid(query.actor)
        ? `l.actor_id = ${param(query.actor)}::uuid`
        : `l.actor_id IN (SELECT id FROM rm.users WHERE email_lower = lower(${param(query.actor)}))`,
    );
  }
  if (query.type) where.push(`l.type = ${param(query.type)}`);
  if (query.from) where.push(`l.at >= ${param(query.from)}`);
  if (query.to) where.push(`l.at <= ${param(query.to)}`);
  if (query.after) where.push(`(l.at, l.position) < (${param(query.after.at)}::timestamptz, ${param(query.after.position)}::text)`);
  const result = await pool.query<{
    id: string;
    actor_id: string | null;
    actor_role: string | null;
    actor_email: string | null;
    type: string;
    target_user_id: string | null;
    target_id: string | null;
    details: Record<string, unknown> | null;
    at: Date;
    stream_id: string;
    position: string;
    sort_at: string;
  }>(
    `SELECT ${cursorInstantSql('l.at')} AS sort_at, l.id, l.actor_id, l.actor_role, u.email AS actor_email, l.type, l.target_user_id, l.target_id, l.details, l.at,
            l.stream_id, l.position
       FROM rm.staff_audit_log l LEFT JOIN rm.users u ON u.id = l.actor_id
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY l.at DESC, l.position DESC
      LIMIT ${param(query.limit)} OFFSET ${param(query.offset ?? 0)}`,
    values,
  );
  return result.rows.map((row) => {
    const details = maskSecrets(row.type, row.details ?? {});
    const changes = changesOf(row.type, details);
    const entry: StaffLogEntry = {
      _id: row.id,
      time: row.at.toISOString(),
      actor: { id: row.actor_id, role: row.actor_role, email: row.actor_email },
      action: row.type,
      userId: row.target_user_id,
      targetId: row.target_id,
      stream: row.stream_id,
      position: token(store, row.position),
      summary: summarize(row.type, details),
      before: changes.length ? Object.fromEntries(changes.map((change) => [change.field, change.before])) : null,
      after: changes.length ? Object.fromEntries(changes.map((change) => [change.field, change.after])) : null,
      details,
    };
    return { entry, key: { at: row.sort_at, position: row.position } };
  });
}

import { parsePosition, type EventStore } from '@bank/eventstore';
import type pg from 'pg';
import { changesOf, maskSecrets, summarize } from './presentEvents';
import { isUuid } from '@bank/platform';

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

/** `%` and `_` typed by a person are literal characters, not LIKE wildcards. */
function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Customers whose name, e-mail, phone or account number contains the text (closed ones included). */
export async function searchCustomers(pool: pg.Pool, search: string, limit = 50): Promise<AuditUserRow[]> {
  const result = await pool.query<{
    id: string;
    first_name: string;
    last_name: string;
    email: string;
    account_number: string;
    is_closed: boolean;
  }>(
    `SELECT id, first_name, last_name, email, account_number, is_closed FROM rm.users
      WHERE role = 'customer' AND search_text LIKE $1
      ORDER BY is_closed, last_name, first_name, id LIMIT $2`,
    [likeContains(search.trim()), limit],
  );
  return result.rows.map((row) => ({
    _id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    accountNumber: row.account_number,
    isClosed: row.is_closed,
  }));
}

export interface StaffLogQuery {
  /** A staff member's id or e-mail. */
  readonly actor?: string;
  readonly type?: string;
  readonly from?: Date;
  readonly to?: Date;
  readonly limit: number;
  readonly offset: number;
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

/** Staff actions from rm.staff_audit_log, newest first. */
export async function queryStaffLog(pool: pg.Pool, store: Pick<EventStore, 'positionToken'>, query: StaffLogQuery): Promise<StaffLogEntry[]> {
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
    position: string | null;
  }>(
    `SELECT l.id, l.actor_id, l.actor_role, u.email AS actor_email, l.type, l.target_user_id, l.target_id, l.details, l.at,
            l.stream_id, l.position
       FROM rm.staff_audit_log l LEFT JOIN rm.users u ON u.id = l.actor_id
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY l.at DESC, l.position DESC
      LIMIT ${param(query.limit)} OFFSET ${param(query.offset)}`,
    values,
  );
  return result.rows.map((row) => {
    const details = maskSecrets(row.type, row.details ?? {});
    const changes = changesOf(row.type, details);
    return {
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
  });
}

import type pg from 'pg';
import { z } from 'zod';
import { isUuid } from '@bank/platform';
import { cursorInstant, cursorInstantSql } from '../../http/keysetPage';
import { customerSearchSql } from './customerSearch';
import { presentUser, USER_COLUMNS, USERS_FROM, type UserRow } from './presentUser';
import type { UserJson } from './userShape';

/** The key of the customer list's order (newest first, then id): what its cursor holds. */
export const customerKey = z.object({ createdAt: cursorInstant, id: z.string().refine(isUuid) });
export type CustomerKey = z.output<typeof customerKey>;

export interface CustomerListQuery {
  readonly search?: string | undefined;
  /** Rows to fetch (a page asks for one more than it shows). */
  readonly limit: number;
  /** Legacy `?offset` (bounded; a cursor is the way to page). */
  readonly offset?: number | undefined;
  readonly after?: CustomerKey | undefined;
}

export interface SqlQuery {
  readonly text: string;
  readonly values: readonly unknown[];
}

/**
 * The customers (no staff, no closed), newest first, optionally filtered by the search: keyset on
 * (created_at DESC, id ASC), served by users_role_created_idx (`created_at <= $t` is its index condition; the rest
 * only skips the rows of the same instant already shown).
 */
export function customerListSql(query: CustomerListQuery): SqlQuery {
  const values: unknown[] = [];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const where = [`u.role = 'customer'`, 'NOT u.is_closed'];
  const search = query.search?.trim();
  if (search) where.push(customerSearchSql('u', search, param));
  if (query.after) {
    const at = `${param(query.after.createdAt)}::timestamptz`;
    where.push(`u.created_at <= ${at} AND (u.created_at < ${at} OR u.id > ${param(query.after.id)}::uuid)`);
  }
  const text = `SELECT ${USER_COLUMNS}, ${cursorInstantSql('u.created_at')} AS sort_created_at FROM ${USERS_FROM}
     WHERE ${where.join(' AND ')}
     ORDER BY u.created_at DESC, u.id LIMIT ${param(query.limit)} OFFSET ${param(query.offset ?? 0)}`;
  return { text, values };
}

export interface CustomerListRow {
  readonly user: UserJson;
  readonly key: CustomerKey;
}

export async function listCustomers(pool: pg.Pool, query: CustomerListQuery): Promise<CustomerListRow[]> {
  const sql = customerListSql(query);
  const { rows } = await pool.query<UserRow & { sort_created_at: string }>(sql.text, [...sql.values]);
  return rows.map((row) => ({ user: presentUser(row), key: { createdAt: row.sort_created_at, id: row.id } }));
}

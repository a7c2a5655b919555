import type pg from 'pg';
import { presentCardRequest, presentUser, USER_COLUMNS, USERS_FROM, type CardRequestRow, type UserRow } from './presentUser';
import type { AdminUserJson, UserJson } from './userShape';
import { isUuid } from '@bank/platform';

/** A user who is not closed, by id (undefined for an unknown id or a malformed one). */
export async function findUserById(pool: pg.Pool, id: string): Promise<UserJson | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await pool.query<UserRow>(`SELECT ${USER_COLUMNS} FROM ${USERS_FROM} WHERE u.id = $1 AND NOT u.is_closed`, [id]);
  return rows[0] ? presentUser(rows[0]) : undefined;
}

/** A user who is not closed, by e-mail (case-insensitive). */
export async function findUserByEmail(pool: pg.Pool, email: string): Promise<UserJson | undefined> {
  const { rows } = await pool.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM ${USERS_FROM} WHERE u.email_lower = lower($1) AND NOT u.is_closed ORDER BY u.created_at LIMIT 1`,
    [email.trim()],
  );
  return rows[0] ? presentUser(rows[0]) : undefined;
}

/** A customer (not staff, not closed) with the card requests the admin's detail page lists. */
export async function findCustomerDetail(pool: pg.Pool, user: UserJson | undefined): Promise<AdminUserJson | undefined> {
  if (!user) return undefined;
  const { rows } = await pool.query<CardRequestRow>(
    'SELECT id, card_type, status, requested_at FROM rm.card_requests WHERE user_id = $1 ORDER BY requested_at DESC, id',
    [user._id],
  );
  return { ...user, cardRequests: rows.map(presentCardRequest) };
}

/** What sign-in needs: the password hash and the flags (never leaves the server). */

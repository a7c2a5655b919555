import { randomUUID } from 'node:crypto';
import type { Role } from '@bank/domain';
import type pg from 'pg';
import type { AppDeps } from '../../appDeps';
import { ensureAuthSchema } from '../authSchema';
import { signToken } from '../tokens';
import type { ClientInfo } from './clientInfo';

/**
 * Sessions (auth.sessions): one per sign-in, durable in PostgreSQL. A token carries its session id; requireAuth
 * refuses it once the session is revoked (sign-out, "Sign out" in Settings, a password change, a second-factor
 * reset) or expired. Nothing of it lives in Redis, so a Redis restart or flush revives no token.
 */

export type RevokeReason = 'signout' | 'revoked' | 'revoke-others' | 'password-changed' | 'second-factor-reset' | 'second-factor-removed';

export interface OpenedSession {
  readonly sessionId: string;
  readonly token: string;
  /** No earlier session of this user came from a device of this name (a notice shows in the portal). */
  readonly newDevice: boolean;
}

export interface SessionView {
  readonly id: string;
  readonly device: string;
  readonly address: string;
  readonly createdAt: string;
  readonly lastUsedAt: string;
  readonly current: boolean;
}

export interface SignInNotice {
  readonly id: string;
  readonly device: string;
  readonly address: string;
  readonly createdAt: string;
}

type Deps = Pick<AppDeps, 'pool' | 'config' | 'now' | 'keys'>;

const now = (deps: Pick<AppDeps, 'now'>) => deps.now?.() ?? new Date();

/**
 * Opens a session and signs its token. `secondFactor`: the sign-in passed a second factor (staff routes require it
 * while STAFF_SECOND_FACTOR=required).
 */
export async function openSession(
  deps: Deps,
  input: { readonly userId: string; readonly role: Role; readonly secondFactor: boolean; readonly client: ClientInfo },
): Promise<OpenedSession> {
  await ensureAuthSchema(deps.pool);
  const sessionId = randomUUID();
  const at = now(deps);
  const issued = signToken(deps, { userId: input.userId, role: input.role, sessionId }, at);
  const { rows } = await deps.pool.query<{ new_device: boolean }>(
    `INSERT INTO auth.sessions (id, user_id, device, user_agent, address, second_factor, new_device, created_at, last_used_at, expires_at)
     SELECT $1, $2, $3, $4, $5, $6,
            EXISTS (SELECT 1 FROM auth.sessions WHERE user_id = $2) AND NOT EXISTS (SELECT 1 FROM auth.sessions WHERE user_id = $2 AND device = $3),
            $7, $7, $8
     RETURNING new_device`,
    [sessionId, input.userId, input.client.device, input.client.userAgent, input.client.address, input.secondFactor, at, new Date(issued.expiresAt * 1000)],
  );
  return { sessionId, token: issued.token, newDevice: rows[0]?.new_device === true };
}

/** The user's sessions that still let a token in, most recently used first. */
export async function listSessions(deps: Pick<AppDeps, 'pool' | 'now'>, userId: string, currentSessionId: string): Promise<SessionView[]> {
  await ensureAuthSchema(deps.pool);
  const { rows } = await deps.pool.query<{ id: string; device: string; address: string; created_at: Date; last_used_at: Date }>(
    `SELECT id, device, address, created_at, last_used_at FROM auth.sessions
      WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2
      ORDER BY last_used_at DESC, created_at DESC`,
    [userId, now(deps)],
  );
  return rows.map((row) => ({
    id: row.id,
    device: row.device,
    address: row.address,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at.toISOString(),
    current: row.id === currentSessionId,
  }));
}

/** Revokes one of the user's sessions; false when the user has no such active session. */
export async function revokeSession(deps: Pick<AppDeps, 'pool' | 'now'>, userId: string, sessionId: string, reason: RevokeReason): Promise<boolean> {
  await ensureAuthSchema(deps.pool);
  const { rowCount } = await deps.pool.query(
    'UPDATE auth.sessions SET revoked_at = $3, revoked_reason = $4 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL',
    [sessionId, userId, now(deps), reason],
  );
  return rowCount === 1;
}

/** Revokes every session of the user but `keepSessionId` (all of them without one); returns how many. */
export async function revokeSessions(
  deps: Pick<AppDeps, 'pool' | 'now'>,
  userId: string,
  reason: RevokeReason,
  keepSessionId?: string,
  client?: pg.PoolClient,
): Promise<number> {
  await ensureAuthSchema(deps.pool);
  const { rowCount } = await (client ?? deps.pool).query(
    `UPDATE auth.sessions SET revoked_at = $2, revoked_reason = $3
      WHERE user_id = $1 AND revoked_at IS NULL AND ($4::uuid IS NULL OR id <> $4::uuid)`,
    [userId, now(deps), reason, keepSessionId ?? null],
  );
  return rowCount ?? 0;
}

/** Sign-ins from a device the user had not used before, not yet dismissed (the last 30 days). */
export async function listSignInNotices(deps: Pick<AppDeps, 'pool' | 'now'>, userId: string): Promise<SignInNotice[]> {
  await ensureAuthSchema(deps.pool);
  const { rows } = await deps.pool.query<{ id: string; device: string; address: string; created_at: Date }>(
    `SELECT id, device, address, created_at FROM auth.sessions
      WHERE user_id = $1 AND new_device AND notice_dismissed_at IS NULL AND created_at > $2::timestamptz - interval '30 days'
      ORDER BY created_at DESC LIMIT 20`,
    [userId, now(deps)],
  );
  return rows.map((row) => ({ id: row.id, device: row.device, address: row.address, createdAt: row.created_at.toISOString() }));
}

/** Dismisses the notice of one sign-in; false when there is none. */
export async function dismissSignInNotice(deps: Pick<AppDeps, 'pool' | 'now'>, userId: string, sessionId: string): Promise<boolean> {
  await ensureAuthSchema(deps.pool);
  const { rowCount } = await deps.pool.query(
    'UPDATE auth.sessions SET notice_dismissed_at = $3 WHERE id = $1 AND user_id = $2 AND new_device AND notice_dismissed_at IS NULL',
    [sessionId, userId, now(deps)],
  );
  return rowCount === 1;
}

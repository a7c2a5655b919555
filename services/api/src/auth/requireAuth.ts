import { ACCOUNT_DISABLED_MESSAGE, roleSchema } from '@bank/domain';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppDeps } from '../appDeps';
import { ForbiddenError, UnauthorizedError } from '../http/httpErrors';
import type { AuthContext } from './authContext';
import { isStaff } from './authContext';
import { ensureAuthSchema } from './authSchema';
import { INVALID_TOKEN_MESSAGE, verifyTokenSignature } from './tokens';
import { createTurnBatcher, isUuid } from '@bank/platform';
import type pg from 'pg';

export const AUTH_REQUIRED_MESSAGE = 'Please sign in to continue';
export const STAFF_SECOND_FACTOR_REQUIRED_MESSAGE = 'Staff must sign in with a second factor';

type AuthDeps = Pick<AppDeps, 'config' | 'pool' | 'auth' | 'now' | 'keys'>;

/** How often at most a session's "last used" is written (it is shown in minutes). */
const LAST_USED_PRECISION_MS = 60_000;

function bearerToken(req: Request): string | undefined {
  const header = req.get('Authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  return match[1];
}

interface CallerRow {
  /** null: the read model does not hold the user yet. */
  role: string | null;
  is_disabled: boolean | null;
  is_closed: boolean | null;
  session_user: string | null;
  revoked_at: Date | null;
  expires_at: Date | null;
  second_factor: boolean | null;
  last_used_at: Date | null;
}

const CALLER_COLUMNS = 'u.role, u.is_disabled, u.is_closed, s.user_id AS session_user, s.revoked_at, s.expires_at, s.second_factor, s.last_used_at';
/** The most sessions checked in one statement. */
const SESSIONS_IN_ONE_READ = 200;

interface CallerKey {
  readonly userId: string;
  readonly sessionId: string;
}

/**
 * The session and user of each request, read fresh: the checks asked in one turn of the event loop (requests in
 * flight together) go as one statement (createTurnBatcher). Both ids are UUIDs checked before they are asked.
 */
function createCallerLookup(pool: pg.Pool): (key: CallerKey) => Promise<CallerRow | undefined> {
  return createTurnBatcher<CallerKey, CallerRow | undefined>({
    runOne: async ({ userId, sessionId }) => {
      const { rows } = await pool.query<CallerRow>({
        name: 'auth.caller',
        text: `SELECT ${CALLER_COLUMNS} FROM auth.sessions s LEFT JOIN rm.users u ON u.id = s.user_id WHERE s.id = $2 AND s.user_id = $1`,
        values: [userId, sessionId],
      });
      return rows[0];
    },
    runMany: async (keys) => {
      const { rows } = await pool.query<CallerRow & { request: string }>({
        name: 'auth.callers',
        text: `SELECT q.request, ${CALLER_COLUMNS}
                 FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS q(user_id, session_id, request)
                 JOIN auth.sessions s ON s.id = q.session_id AND s.user_id = q.user_id
                 LEFT JOIN rm.users u ON u.id = s.user_id`,
        values: [keys.map((key) => key.userId), keys.map((key) => key.sessionId)],
      });
      const found = new Map(rows.map(({ request, ...row }) => [Number(request), row]));
      return keys.map((_, index) => found.get(index + 1));
    },
    maxBatch: SESSIONS_IN_ONE_READ,
  });
}

const callerLookups = new WeakMap<pg.Pool, (key: CallerKey) => Promise<CallerRow | undefined>>();

function callerLookup(pool: pg.Pool): (key: CallerKey) => Promise<CallerRow | undefined> {
  let lookup = callerLookups.get(pool);
  if (!lookup) {
    lookup = createCallerLookup(pool);
    callerLookups.set(pool, lookup);
  }
  return lookup;
}

/**
 * The caller behind the request's bearer token, or undefined without one. Throws 401 for a token that is malformed,
 * wrongly signed or expired, whose session is revoked or expired (durable in PostgreSQL), or whose user is closed
 * or disabled in the read model: one query reads the user and the session together (one statement for the requests
 * checked in the same turn). A staff session opened without a second factor is refused (403) while
 * STAFF_SECOND_FACTOR=required.
 */
export async function authenticateRequest(deps: AuthDeps, req: Request): Promise<AuthContext | undefined> {
  const token = bearerToken(req);
  if (!token) return undefined;
  const verified = verifyTokenSignature(deps.keys, token);
  if (!isUuid(verified.userId)) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  await ensureAuthSchema(deps.pool);
  // The session, and its user as the read model has them. A user the read model does not hold yet (signed up a moment
  // ago, the projector behind) passed sign-in against the event store when the session opened: the token's role holds.
  const row = await callerLookup(deps.pool)({ userId: verified.userId, sessionId: verified.sessionId });
  const now = deps.now?.() ?? new Date();
  if (!row || row.is_closed) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  if (row.session_user !== verified.userId || row.revoked_at || !row.expires_at || row.expires_at <= now) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  if (row.is_disabled) throw new UnauthorizedError(ACCOUNT_DISABLED_MESSAGE);
  const role = row.role === null ? verified.role : roleSchema.parse(row.role);
  // Defence in depth: staff get a token only after their second factor, but a session opened while the setting was
  // optional (or by a tool) must not reach a staff route once it is required.
  if (isStaff(role) && !row.second_factor && deps.auth.staffSecondFactor === 'required') {
    throw new ForbiddenError(STAFF_SECOND_FACTOR_REQUIRED_MESSAGE);
  }
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_PRECISION_MS) {
    await deps.pool.query('UPDATE auth.sessions SET last_used_at = $2 WHERE id = $1 AND last_used_at < $2', [verified.sessionId, now]);
  }
  return { userId: verified.userId, role, tokenId: verified.tokenId, sessionId: verified.sessionId, expiresAt: verified.expiresAt };
}

/**
 * App-wide and lenient: sets `req.auth` when the request carries a good token; a bad token is remembered for
 * requireAuth but does not stop public routes (a stale token left in a browser must not break sign-in).
 */
export function authenticate(deps: AuthDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      req.auth = await authenticateRequest(deps, req);
    } catch (error) {
      if (!(error instanceof UnauthorizedError) && !(error instanceof ForbiddenError)) throw error;
      res.locals.authError = error;
    }
    next();
  };
}

/** Every authenticated route starts here: 401 unless the request carries a good token (see authenticateRequest). */
export function requireAuth(deps: AuthDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (!req.auth) {
      const earlier: unknown = res.locals.authError;
      if (earlier instanceof UnauthorizedError || earlier instanceof ForbiddenError) throw earlier;
      const auth = await authenticateRequest(deps, req);
      if (!auth) throw new UnauthorizedError(AUTH_REQUIRED_MESSAGE);
      req.auth = auth;
    }
    next();
  };
}

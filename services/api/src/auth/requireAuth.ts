import { ACCOUNT_DISABLED_MESSAGE, roleSchema } from '@bank/domain';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppDeps } from '../appDeps';
import { UnauthorizedError } from '../http/httpErrors';
import { isUuid } from '../http/pathParam';
import type { AuthContext } from './authContext';
import { INVALID_TOKEN_MESSAGE, isTokenRevoked, verifyTokenSignature } from './tokens';

export const AUTH_REQUIRED_MESSAGE = 'Please sign in to continue';

type AuthDeps = Pick<AppDeps, 'config' | 'redis' | 'pool'>;

function bearerToken(req: Request): string | undefined {
  const header = req.get('Authorization');
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  return match[1];
}

/**
 * The caller behind the request's bearer token, or undefined without one. Throws 401 for a token that is malformed,
 * wrongly signed, expired or revoked (sign-out), or whose user is gone, closed or disabled in the read model
 * (one primary-key read per request).
 */
export async function authenticateRequest(deps: AuthDeps, req: Request): Promise<AuthContext | undefined> {
  const token = bearerToken(req);
  if (!token) return undefined;
  const verified = verifyTokenSignature(deps.config, token);
  if (!isUuid(verified.userId)) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  const [revoked, user] = await Promise.all([
    isTokenRevoked(deps.redis, deps.config.REDIS_PREFIX, verified.tokenId),
    deps.pool.query<{ role: string; is_disabled: boolean; is_closed: boolean }>('SELECT role, is_disabled, is_closed FROM rm.users WHERE id = $1', [
      verified.userId,
    ]),
  ]);
  if (revoked) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  const row = user.rows[0];
  if (!row || row.is_closed) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  if (row.is_disabled) throw new UnauthorizedError(ACCOUNT_DISABLED_MESSAGE);
  return { userId: verified.userId, role: roleSchema.parse(row.role), tokenId: verified.tokenId, expiresAt: verified.expiresAt };
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
      if (!(error instanceof UnauthorizedError)) throw error;
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
      if (earlier instanceof UnauthorizedError) throw earlier;
      const auth = await authenticateRequest(deps, req);
      if (!auth) throw new UnauthorizedError(AUTH_REQUIRED_MESSAGE);
      req.auth = auth;
    }
    next();
  };
}

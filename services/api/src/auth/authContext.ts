import type { Role } from '@bank/domain';
import type { Request } from 'express';
import { UnauthorizedError } from '../http/httpErrors';

/** Who is calling: set on `req.auth` by requireAuth. */
export interface AuthContext {
  readonly userId: string;
  /** From the read model (the token's claim is only a hint). */
  readonly role: Role;
  /** The token id (jti). */
  readonly tokenId: string;
  /** The session the token belongs to (auth.sessions), revoked at sign-out. */
  readonly sessionId: string;
  /** The token's expiry, seconds since the epoch. */
  readonly expiresAt: number;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by requireAuth. */
    auth?: AuthContext;
  }
}

/** The caller of a route behind requireAuth (throws 401 when used elsewhere by mistake). */
export function authOf(req: Request): AuthContext {
  if (!req.auth) throw new UnauthorizedError();
  return req.auth;
}

export const STAFF_ROLES: readonly Role[] = ['admin', 'auditor'];

export function isStaff(role: Role): boolean {
  return STAFF_ROLES.includes(role);
}

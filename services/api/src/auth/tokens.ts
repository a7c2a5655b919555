import { randomUUID } from 'node:crypto';
import { roleSchema, type Role } from '@bank/domain';
import type { Config } from '@bank/platform';
import type { Redis } from 'ioredis';
import jwt from 'jsonwebtoken';
import { UnauthorizedError } from '../http/httpErrors';

export const INVALID_TOKEN_MESSAGE = 'Your session is invalid or has expired, please sign in again';

export interface IssuedToken {
  readonly token: string;
  readonly tokenId: string;
  /** Seconds since the epoch. */
  readonly expiresAt: number;
}

export interface VerifiedToken {
  readonly userId: string;
  readonly role: Role;
  readonly tokenId: string;
  readonly expiresAt: number;
}

type TokenConfig = Pick<Config, 'JWT_SECRET' | 'JWT_TTL_SECONDS'>;

/** HS256 JWT with sub = user id, role, a fresh jti and an expiry of JWT_TTL_SECONDS. */
export function signToken(config: TokenConfig, user: { readonly userId: string; readonly role: Role }, now = new Date()): IssuedToken {
  const tokenId = randomUUID();
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + config.JWT_TTL_SECONDS;
  const token = jwt.sign({ role: user.role, iat: issuedAt, exp: expiresAt }, config.JWT_SECRET, {
    algorithm: 'HS256',
    subject: user.userId,
    jwtid: tokenId,
  });
  return { token, tokenId, expiresAt };
}

/** Checks signature (HS256 only), expiry and claims; throws 401 for anything wrong. Does not look at revocation. */
export function verifyTokenSignature(config: Pick<Config, 'JWT_SECRET'>, token: string): VerifiedToken {
  let payload: string | jwt.JwtPayload;
  try {
    payload = jwt.verify(token, config.JWT_SECRET, { algorithms: ['HS256'] });
  } catch {
    throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  }
  if (typeof payload === 'string') throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  const role = roleSchema.safeParse(payload.role);
  if (!payload.sub || !payload.jti || typeof payload.exp !== 'number' || !role.success) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  return { userId: payload.sub, role: role.data, tokenId: payload.jti, expiresAt: payload.exp };
}

function revocationKey(prefix: string, tokenId: string): string {
  return `${prefix}auth:revoked:${tokenId}`;
}

/** Revokes a token until it would have expired anyway (sign-out). */
export async function revokeToken(redis: Redis, prefix: string, token: { tokenId: string; expiresAt: number }, now = new Date()): Promise<void> {
  const ttl = token.expiresAt - Math.floor(now.getTime() / 1000);
  if (ttl <= 0) return;
  await redis.set(revocationKey(prefix, token.tokenId), '1', 'EX', ttl);
}

export async function isTokenRevoked(redis: Redis, prefix: string, tokenId: string): Promise<boolean> {
  return (await redis.exists(revocationKey(prefix, tokenId))) === 1;
}

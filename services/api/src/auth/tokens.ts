import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { roleSchema, type Role } from '@bank/domain';
import type { Config } from '@bank/platform';
import jwt from 'jsonwebtoken';
import type { ApiKeys } from '../apiKeys';
import { UnauthorizedError } from '../http/httpErrors';
import { isUuid } from '@bank/platform';

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
  /** The session (auth.sessions) the token belongs to: revoking it refuses the token. */
  readonly sessionId: string;
  readonly expiresAt: number;
}

const secretKeys = new WeakMap<Buffer, KeyObject>();

/**
 * The signing key as a KeyObject, made once per key: given a Buffer, jsonwebtoken first tries to read it as a public
 * key (an exception, about a millisecond of CPU) on every sign and verify.
 */
function secretKeyOf(key: Buffer): KeyObject {
  let object = secretKeys.get(key);
  if (!object) {
    object = createSecretKey(key);
    secretKeys.set(key, object);
  }
  return object;
}

type TokenDeps = { readonly config: Pick<Config, 'JWT_TTL_SECONDS'>; readonly keys: Pick<ApiKeys, 'jwt'> };

/**
 * HS256 JWT with sub = user id, role, the session id (`sid`), a fresh jti and an expiry of JWT_TTL_SECONDS, signed by
 * the current key (named in the `kid` header).
 */
export function signToken(
  deps: TokenDeps,
  user: { readonly userId: string; readonly role: Role; readonly sessionId: string },
  now = new Date(),
): IssuedToken {
  const tokenId = randomUUID();
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + deps.config.JWT_TTL_SECONDS;
  const { id, key } = deps.keys.jwt.current;
  const token = jwt.sign({ role: user.role, sid: user.sessionId, iat: issuedAt, exp: expiresAt }, secretKeyOf(key), {
    algorithm: 'HS256',
    keyid: id,
    subject: user.userId,
    jwtid: tokenId,
  });
  return { token, tokenId, expiresAt };
}

/**
 * Checks signature (HS256 only, with the key its `kid` names: a retired key that is no longer configured, or no
 * kid, is refused), expiry and claims; throws 401 for anything wrong. Does not look at the session.
 */
export function verifyTokenSignature(keys: Pick<ApiKeys, 'jwt'>, token: string): VerifiedToken {
  let payload: string | jwt.JwtPayload;
  try {
    const kid = jwt.decode(token, { complete: true })?.header.kid;
    const key = kid === undefined ? undefined : keys.jwt.byId(kid);
    if (!key) throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
    payload = jwt.verify(token, secretKeyOf(key), { algorithms: ['HS256'] });
  } catch {
    throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  }
  if (typeof payload === 'string') throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  const role = roleSchema.safeParse(payload.role);
  const sessionId: unknown = payload.sid;
  // A token without a session (issued before sessions existed) cannot be revoked, so it is not accepted.
  if (!payload.sub || !payload.jti || typeof payload.exp !== 'number' || !role.success || typeof sessionId !== 'string' || !isUuid(sessionId)) {
    throw new UnauthorizedError(INVALID_TOKEN_MESSAGE);
  }
  return { userId: payload.sub, role: role.data, tokenId: payload.jti, sessionId, expiresAt: payload.exp };
}

import { parseConfig } from '@bank/platform';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { loadApiKeys } from '../apiKeys';
import { signToken, verifyTokenSignature } from './tokens';

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');
const config = parseConfig({ NODE_ENV: 'production' });
const keysOf = (jwtKeys: string) => loadApiKeys(config, { JWT_KEYS: jwtKeys, IDEMPOTENCY_KEYS: `i1:${key(9)}` });
const user = { userId: '7d1f0c55-5b0a-4a43-9a3a-6f4f7e1d2c3b', role: 'customer', sessionId: '5f0c2a8e-3b1d-4c7e-9a6f-2d4b8c1e7a30' } as const;

describe('JWT signing keys (JWT_KEYS)', () => {
  it('signs with the current key and names it in the kid header', () => {
    const keys = keysOf(`k2:${key(2)},k1:${key(1)}`);
    const { token } = signToken({ config, keys }, user);
    expect(jwt.decode(token, { complete: true })?.header).toMatchObject({ alg: 'HS256', kid: 'k2' });
    expect(verifyTokenSignature(keys, token).userId).toBe(user.userId);
  });

  it('still accepts tokens of an older key while it is configured, and refuses them once it is retired', () => {
    const before = keysOf(`k1:${key(1)}`);
    const { token } = signToken({ config, keys: before }, user);
    expect(verifyTokenSignature(keysOf(`k2:${key(2)},k1:${key(1)}`), token).userId).toBe(user.userId);
    expect(() => verifyTokenSignature(keysOf(`k2:${key(2)}`), token)).toThrow(/invalid or has expired/);
  });

  it('refuses a token without a kid, with an unknown kid, or with a kid naming a key it was not signed with', () => {
    const keys = keysOf(`k2:${key(2)},k1:${key(1)}`);
    const claims = { role: 'customer', sub: user.userId, jti: 'j1', sid: '00000000-0000-4000-8000-000000000051' };
    const noKid = jwt.sign(claims, Buffer.alloc(32, 2), { algorithm: 'HS256', expiresIn: 60 });
    const unknownKid = jwt.sign(claims, Buffer.alloc(32, 2), { algorithm: 'HS256', expiresIn: 60, keyid: 'k9' });
    const wrongKid = jwt.sign(claims, Buffer.alloc(32, 2), { algorithm: 'HS256', expiresIn: 60, keyid: 'k1' });
    const none = jwt.sign(claims, '', { algorithm: 'none', expiresIn: 60, keyid: 'k2' });
    for (const token of [noKid, unknownKid, wrongKid, none]) expect(() => verifyTokenSignature(keys, token)).toThrow(/invalid or has expired/);
    const good = jwt.sign(claims, Buffer.alloc(32, 2), { algorithm: 'HS256', expiresIn: 60, keyid: 'k2' });
    expect(verifyTokenSignature(keys, good).tokenId).toBe('j1');
  });
});

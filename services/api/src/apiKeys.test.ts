import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseConfig } from '@bank/platform';
import jwt from 'jsonwebtoken';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadApiKeys } from './apiKeys';
import { signToken, verifyTokenSignature } from './auth/tokens';

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');

function capturingLogger() {
  const lines: { msg: string; file?: string; level: number }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { msg: string; level: number });
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('loadApiKeys', () => {
  it('refuses a production start without the secrets in the environment, naming each variable', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bank-keys-'));
    const production = parseConfig({ NODE_ENV: 'production', DATA_DIR: dataDir });
    expect(() => loadApiKeys(production, {})).toThrow(/JWT_KEYS \(or JWT_SECRET\): required in production/);
    expect(() => loadApiKeys(production, { JWT_KEYS: `k1:${key(1)}` })).toThrow(/IDEMPOTENCY_KEYS: required in production/);
    const withSecret = parseConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, JWT_SECRET: 'p'.repeat(40) });
    expect(() => loadApiKeys(withSecret, {})).toThrow(/IDEMPOTENCY_KEYS: required in production/);
    const keys = loadApiKeys(withSecret, { IDEMPOTENCY_KEYS: `i1:${key(2)}` });
    expect(keys.jwt.source).toBe('JWT_SECRET');
    expect(keys.idempotency.current.id).toBe('i1');
    expect(() => statSync(path.join(dataDir, 'keys'))).toThrow();
  });

  it('generates private key files in DATA_DIR on the first development start, says so, and keeps them', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bank-keys-'));
    const config = parseConfig({ DATA_DIR: dataDir });
    const first = capturingLogger();
    const keys = loadApiKeys(config, {}, first.logger);
    for (const name of ['jwt', 'idempotency']) {
      const file = path.join(dataDir, 'keys', `${name}.json`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first.lines).toContainEqual(expect.objectContaining({ file, level: 40, msg: expect.stringMatching(/Created a new key file/) }));
    }
    expect(statSync(path.join(dataDir, 'keys')).mode & 0o777).toBe(0o700);
    expect(readFileSync(path.join(dataDir, 'keys', 'jwt.json'), 'utf8')).toContain(keys.jwt.current.key.toString('base64'));

    const again = capturingLogger();
    const restarted = loadApiKeys(config, {}, again.logger);
    expect(again.lines).toEqual([]);
    expect(restarted.jwt.current.key.equals(keys.jwt.current.key)).toBe(true);
    // A token issued before the restart still verifies after it.
    const { token } = signToken({ config, keys }, { userId: 'u1', role: 'customer', sessionId: '5f0c2a8e-3b1d-4c7e-9a6f-2d4b8c1e7a30' });
    expect(verifyTokenSignature(restarted, token).userId).toBe('u1');
  });

  it('no longer accepts a token signed with the constant that used to be the development secret', () => {
    const config = parseConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bank-keys-')) });
    const keys = loadApiKeys(config, {});
    const minted = jwt.sign({ role: 'admin' }, 'development-only-secret-change-me', { algorithm: 'HS256', subject: 'u1', jwtid: 'j', expiresIn: 60 });
    expect(() => verifyTokenSignature(keys, minted)).toThrow(/invalid or has expired/);
  });

  it('takes JWT_KEYS or JWT_SECRET, not both', () => {
    const config = parseConfig({ JWT_SECRET: 's'.repeat(32), DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bank-keys-')) });
    expect(() => loadApiKeys(config, { JWT_KEYS: `k1:${key(1)}`, IDEMPOTENCY_KEYS: `i1:${key(2)}` })).toThrow(/set one of them, not both/);
  });
});

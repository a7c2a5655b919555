import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config';
import { loadKeyring, parseKeyringText } from './keyring';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'keyring-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const key32 = Buffer.alloc(32, 7).toString('base64');
const other32 = Buffer.alloc(32, 9).toString('base64');

describe('loadKeyring', () => {
  it('takes the keys from the variable, the first being current and the others still found by id', () => {
    const ring = loadKeyring({ name: 'pin', envVar: 'PIN_KEYS', env: { PIN_KEYS: `k2:${key32},k1:${other32}` }, dataDir: tempDir(), production: true });
    expect(ring.current.id).toBe('k2');
    expect(ring.current.key.equals(Buffer.alloc(32, 7))).toBe(true);
    expect(ring.byId('k1')?.equals(Buffer.alloc(32, 9))).toBe(true);
    expect(ring.byId('k3')).toBeUndefined();
    expect(ring.source).toBe('PIN_KEYS');
  });

  it('refuses to start in production without the variable, naming it', () => {
    expect(() => loadKeyring({ name: 'pin', envVar: 'PIN_KEYS', env: {}, dataDir: tempDir(), production: true })).toThrow(/PIN_KEYS: required in production/);
  });

  it('creates a private key file on first use outside production, says so, and reads the same key afterwards', () => {
    const dataDir = tempDir();
    const created: string[] = [];
    const first = loadKeyring({ name: 'pin', envVar: 'PIN_KEYS', env: {}, dataDir, production: false, onCreated: (file) => created.push(file) });
    const file = path.join(dataDir, 'keys', 'pin.json');
    expect(created).toEqual([file]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).keys).toHaveLength(1);
    const second = loadKeyring({ name: 'pin', envVar: 'PIN_KEYS', env: {}, dataDir, production: false, onCreated: (f) => created.push(f) });
    expect(created).toHaveLength(1);
    expect(second.current.key.equals(first.current.key)).toBe(true);
    expect(first.current.key).toHaveLength(32);
  });

  it('refuses short keys, bad ids and repeated ids', () => {
    expect(() => parseKeyringText('pin', 'PIN_KEYS', `k1:${Buffer.alloc(8).toString('base64')}`)).toThrow(ConfigError);
    expect(() => parseKeyringText('pin', 'PIN_KEYS', `bad id:${key32}`)).toThrow(/key id/);
    expect(() => parseKeyringText('pin', 'PIN_KEYS', `k1:${key32},k1:${other32}`)).toThrow(/same key id/);
    expect(() => parseKeyringText('pin', 'PIN_KEYS', key32)).toThrow(/id:base64key/);
  });
});

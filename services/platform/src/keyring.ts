import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config';

/**
 * Keys held outside the database (payment-pin hashing, the event log's chain hashes, TOTP secrets at rest, JWT
 * signing, idempotency fingerprints). A keyring has a current key, used for everything new, and older keys kept
 * so that what they protected still verifies; each key has a short id that is stored beside what it protected.
 *
 * Where a keyring comes from, in order:
 *   1. the environment variable (e.g. PIN_KEYS): `id:base64key[,id:base64key…]`, the first being current;
 *   2. outside production only: the file `<DATA_DIR>/keys/<name>.json`, created on first use with one fresh
 *      random key (mode 0600, directory 0700), and the creation logged;
 *   3. in production, nothing else: a missing variable stops start-up with a message naming it.
 */
export interface KeyringKey {
  readonly id: string;
  readonly key: Buffer;
}

export interface Keyring {
  readonly name: string;
  readonly current: KeyringKey;
  /** The key with that id, or undefined (a retired key that is no longer configured). */
  byId(id: string): Buffer | undefined;
  /** Where the keys came from: the variable's name, or the file's path. */
  readonly source: string;
}

export interface LoadKeyringOptions {
  /** Short lower-case name: the file is `<dataDir>/keys/<name>.json`. */
  readonly name: string;
  /** The environment variable holding the keys, e.g. 'PIN_KEYS'. */
  readonly envVar: string;
  readonly env: Record<string, string | undefined>;
  readonly dataDir: string;
  readonly production: boolean;
  /** Told once when a key file is created. */
  readonly onCreated?: (file: string) => void;
  /** Bytes of a generated key (default 32). */
  readonly keyBytes?: number;
  /** Shortest acceptable key in bytes (default 32). */
  readonly minKeyBytes?: number;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

interface KeyFile {
  readonly keys: ReadonlyArray<{ readonly id: string; readonly key: string }>;
}

function keyringOf(name: string, source: string, keys: readonly KeyringKey[]): Keyring {
  const current = keys[0];
  if (!current) throw new ConfigError(`${source}: no key`);
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  if (byId.size !== keys.length) throw new ConfigError(`${source}: the same key id twice`);
  return { name, current, source, byId: (id) => byId.get(id) };
}

function decodeKey(source: string, id: string, text: string, minBytes: number): KeyringKey {
  if (!KEY_ID.test(id)) throw new ConfigError(`${source}: key id ${JSON.stringify(id)} must be 1-32 letters, digits, '-' or '_'`);
  const key = Buffer.from(text, 'base64');
  if (key.length < minBytes) throw new ConfigError(`${source}: key ${id} must be at least ${minBytes} bytes (base64)`);
  return { id, key };
}

/** Parses `id:base64[,id:base64…]`. */
export function parseKeyringText(name: string, source: string, text: string, minBytes = 32): Keyring {
  const keys = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const colon = part.indexOf(':');
      if (colon < 1) throw new ConfigError(`${source}: expected id:base64key[,id:base64key…]`);
      return decodeKey(source, part.slice(0, colon), part.slice(colon + 1), minBytes);
    });
  return keyringOf(name, source, keys);
}

function readKeyFile(name: string, file: string, minBytes: number): Keyring {
  let parsed: KeyFile;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
  } catch (error) {
    throw new ConfigError(`${file}: not a readable key file (${(error as Error).message})`);
  }
  if (!Array.isArray(parsed.keys)) throw new ConfigError(`${file}: expected {"keys": [{"id", "key"}]}`);
  return keyringOf(
    name,
    file,
    parsed.keys.map((entry) => decodeKey(file, String(entry.id), String(entry.key), minBytes)),
  );
}

function fileExists(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Loads a keyring (see the module comment); creates the development key file when neither source exists. */
export function loadKeyring(options: LoadKeyringOptions): Keyring {
  const minBytes = options.minKeyBytes ?? 32;
  const fromEnv = options.env[options.envVar];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return parseKeyringText(options.name, options.envVar, fromEnv, minBytes);
  if (options.production) {
    throw new ConfigError(`Invalid configuration:\n  ${options.envVar}: required in production (id:base64key, at least ${minBytes} bytes)`);
  }
  const dir = path.resolve(options.dataDir, 'keys');
  const file = path.join(dir, `${options.name}.json`);
  if (fileExists(file)) return readKeyFile(options.name, file, minBytes);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const content: KeyFile = { keys: [{ id: 'k1', key: randomBytes(options.keyBytes ?? 32).toString('base64') }] };
  // Written whole under a name of its own, then linked into place: the link fails if another process starting at the
  // same moment got there first (then its key is used), and nobody ever reads a half-written file.
  const draft = path.join(dir, `.${options.name}.${process.pid}.${randomBytes(4).toString('hex')}`);
  writeFileSync(draft, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
    options.onCreated?.(file);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  return readKeyFile(options.name, file, minBytes);
}

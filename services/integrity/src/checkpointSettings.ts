import path from 'node:path';
import { ConfigError, loadKeyring, type Config, type Keyring, type Logger } from '@bank/platform';
import { z } from 'zod';
import { DEFAULT_CHECKPOINT_FILE_BYTES } from './checkpointWriter';

/**
 * Where the signed checkpoints go and how often (docs/operations.md, "The signed checkpoints"):
 *   CHECKPOINT_DIR            the checkpoint files' directory (default <DATA_DIR>/checkpoints/<log>, <log> naming the
 *                             event log: `postgres-<database>` or `eventstoredb-<host>`, so that two logs never share a
 *                             chain of records): outside the event store, on storage the database's administrators
 *                             cannot write; the worker writes it, the audit (API, CLI) reads it
 *   CHECKPOINT_EVERY_MS       pause between two checkpoints (default 60 s): the newest events are unprotected against
 *                             a deletion of a stream's tail for at most this long
 *   CHECKPOINT_FILE_MAX_BYTES a file grows to about this size before the next starts (default 64 MiB)
 */
const settingsSchema = z.object({
  CHECKPOINT_DIR: z.string().min(1).optional(),
  CHECKPOINT_EVERY_MS: z.coerce.number().int().min(1_000).max(24 * 60 * 60 * 1000).default(60_000),
  CHECKPOINT_FILE_MAX_BYTES: z.coerce.number().int().min(64 * 1024).default(DEFAULT_CHECKPOINT_FILE_BYTES),
});

export interface CheckpointSettings {
  readonly dir: string;
  readonly everyMs: number;
  readonly maxFileBytes: number;
}

/** A directory name for the configured event log. */
export function eventLogName(config: Pick<Config, 'DATABASE_URL' | 'EVENTSTORE_URL'>): string {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 100) || 'default';
  if (config.EVENTSTORE_URL) {
    const hosts = config.EVENTSTORE_URL.replace(/^[a-z+]+:\/\//, '').replace(/^[^@/]*@/, '').split(/[/?]/)[0] ?? '';
    return `eventstoredb-${clean(hosts)}`;
  }
  const database = decodeURIComponent(new URL(config.DATABASE_URL).pathname.replace(/^\//, ''));
  return `postgres-${clean(database)}`;
}

export function parseCheckpointSettings(config: Pick<Config, 'DATA_DIR' | 'DATABASE_URL' | 'EVENTSTORE_URL'>, env: Record<string, string | undefined>): CheckpointSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = settingsSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const { CHECKPOINT_DIR, CHECKPOINT_EVERY_MS, CHECKPOINT_FILE_MAX_BYTES } = result.data;
  return {
    dir: path.resolve(CHECKPOINT_DIR ?? path.join(config.DATA_DIR, 'checkpoints', eventLogName(config))),
    everyMs: CHECKPOINT_EVERY_MS,
    maxFileBytes: CHECKPOINT_FILE_MAX_BYTES,
  };
}

export const CHECKPOINT_KEYS_VARIABLE = 'CHECKPOINT_KEYS';

/**
 * The checkpoint keyring: CHECKPOINT_KEYS (`id:base64key[,…]`, the first signs), else outside production a key file
 * generated once into `<DATA_DIR>/keys/checkpoint.json`; production refuses to start without the variable. A keyring
 * of its own, not CHAIN_KEYS: see docs/security.md.
 */
export function loadCheckpointKeys(config: Pick<Config, 'NODE_ENV' | 'DATA_DIR'>, env: Record<string, string | undefined>, logger?: Logger): Keyring {
  return loadKeyring({
    name: 'checkpoint',
    envVar: CHECKPOINT_KEYS_VARIABLE,
    env,
    dataDir: config.DATA_DIR,
    production: config.NODE_ENV === 'production',
    onCreated: (file) =>
      logger?.warn(
        { file },
        `Created a new key file ${file} (mode 0600) because ${CHECKPOINT_KEYS_VARIABLE} is not set; production requires ${CHECKPOINT_KEYS_VARIABLE} from the environment`,
      ),
  });
}

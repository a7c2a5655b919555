import { isIP } from 'node:net';
import { z } from 'zod';
import { isValidRoutingNumber } from '@bank/domain/routingNumber';
import { bankIdentity } from '@bank/domain/bank';

const csv = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean));

/** EventStoreDB connection strings: esdb:// and kurrentdb://, each with its +discover (DNS cluster discovery) form. */
export const EVENTSTORE_URL_SCHEME = /^(esdb|kurrentdb)(\+discover)?:\/\//;

/** True when the connection string sets tlsVerifyCert=false, which @eventstore/db-client 6.2.1 silently ignores. */
function disablesCertificateCheck(url: string): boolean {
  const query = url.split('?')[1] ?? '';
  return query.split('&').some((pair) => {
    const [key = '', value = ''] = pair.split('=');
    return key.trim().toLowerCase().replace(/[_-]/g, '') === 'tlsverifycert' && value.trim() === 'false';
  });
}

const TRUST_PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrSubnet(item: string): boolean {
  if (TRUST_PROXY_PRESETS.has(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Express's 'trust proxy': which hops in front of the app may state the client's address in X-Forwarded-For.
 * `false` (the default) = none, the address is the socket's peer; a number = that many proxies in front; a list of
 * addresses, subnets or the presets loopback, linklocal, uniquelocal = those proxies. `true` (trust every hop) is
 * refused: any client could then claim any address and escape the per-address limits.
 */
const trustProxy = z.string().transform((text, ctx): false | number | string[] => {
  const value = text.trim().toLowerCase();
  if (value === 'false' || value === '0') return false;
  if (value === 'true') {
    ctx.addIssue({ code: 'custom', message: "'true' would trust any client's X-Forwarded-For: give the number of proxies in front of the app, or their addresses" });
    return z.NEVER;
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) ctx.addIssue({ code: 'custom', message: 'at most 10 proxies' });
    return hops;
  }
  const items = value.split(',').map((item) => item.trim()).filter(Boolean);
  const bad = items.filter((item) => !isAddressOrSubnet(item));
  if (items.length === 0 || bad.length > 0) {
    ctx.addIssue({ code: 'custom', message: `expected false, a number of proxies, or addresses/subnets (or loopback, linklocal, uniquelocal); not ${bad.join(', ') || 'empty'}` });
    return z.NEVER;
  }
  return items;
});

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .url()
    .refine((url) => /^postgres(ql)?:\/\//.test(url), 'must be a postgres:// or postgresql:// URL')
    .default('postgres://postgres@127.0.0.1:5432/bank'),
  /**
   * A hot standby (or a load balancer in front of several) the API's GET routes read the read models (rm.*) from;
   * commands, the event store, the projector and every write use DATABASE_URL. Unset = everything on DATABASE_URL.
   */
  DATABASE_READ_URL: z
    .string()
    .url()
    .refine((url) => /^postgres(ql)?:\/\//.test(url), 'must be a postgres:// or postgresql:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .url()
    .refine((url) => /^rediss?:\/\//.test(url), 'must be a redis:// or rediss:// URL')
    .default('redis://127.0.0.1:6379'),
  EVENTSTORE_URL: z
    .string()
    .refine(
      (url) => EVENTSTORE_URL_SCHEME.test(url),
      'must be an esdb://, esdb+discover://, kurrentdb:// or kurrentdb+discover:// URL (unset = PostgreSQL event store)',
    )
    .refine(
      (url) => !disablesCertificateCheck(url),
      'tlsVerifyCert=false has no effect with @eventstore/db-client 6.2.1: trust the cluster CA with tlsCAFile=/path/to/ca.crt instead (or tls=false for an insecure server)',
    )
    .optional(),
  REDIS_PREFIX: z.string().min(1).default('bank:'),
  /** A single signing secret (kept for existing deployments); JWT_KEYS is the rotatable form (see apiKeys.ts in the API). */
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  JWT_TTL_SECONDS: z.coerce.number().int().positive().default(24 * 60 * 60),
  CORS_ORIGINS: csv.default([]),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  TRUST_PROXY: trustProxy.default(false),
  /** The API's Prometheus metrics are served on this port only (never under /api); unset = not served. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The address the metrics port listens on: loopback unless a scraper elsewhere must reach it. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * How long a process asked to stop (SIGTERM, SIGINT) may take to stop gracefully before it exits anyway, logging the
   * step it was still in (main.ts). Within the 30 s an orchestrator usually waits before its SIGKILL.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(25_000),
  /**
   * The bank's own ABA routing number (it is its own ODFI): GET /bank, the ACH files' immediate origin, the batches'
   * ODFI identification and the trace numbers' prefix. Refused at start-up unless it passes the check digit.
   */
  BANK_ROUTING_NUMBER: z
    .string()
    .trim()
    .refine(isValidRoutingNumber, 'must be 9 digits that pass the ABA check digit (3·d1 + 7·d2 + d3 + … ≡ 0 mod 10)')
    .default(bankIdentity.routingNumber),
  AUDIT_CHECK_EVERY_MS: z.coerce.number().int().positive().default(60 * 60 * 1000),
  /** Streams whose folded state each process keeps in memory (the command handler's LRU cache). */
  COMMAND_CACHE_STREAMS: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
  /** Events between two persisted snapshots of a stream's state (a cold process folds at most this many). */
  SNAPSHOT_EVERY: z.coerce.number().int().min(10).max(1_000_000).default(500),
  /** Tries of a command whose stream other processes keep moving before it answers 409. */
  COMMAND_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(25),
  /**
   * An API request not answered within this many milliseconds is answered 503 (Retry-After): a commit waiting for a
   * synchronous standby that is gone, or a database or Redis whose packets are dropped, never holds a client longer.
   */
  REQUEST_DEADLINE_MS: z.coerce.number().int().min(100).max(600_000).default(8_000),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Validates an environment; throws a ConfigError naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // Secrets (the JWT signing keys and the other keyrings) are not configuration: the API loads them with
  // loadKeyring, which refuses to start in production without them.
  return result.data;
}

let cached: Config | undefined;

/** The process's configuration, read from process.env once. */
export function loadConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

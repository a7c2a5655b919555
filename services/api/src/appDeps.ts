import type { CommandHandler } from '@bank/commands';
import type { Config, Keyring, Logger } from '@bank/platform';
import type { EventStore, Position } from '@bank/eventstore';
import type { LegacyPinVerifier, TransferSignals } from '@bank/transfers';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import type { ApiKeys } from './apiKeys';
import type { ApiTransferSettings } from './apiTransferSettings';
import type { AuthSettings } from './auth/authSettings';
import type { AuditCheckpoints } from '@bank/audit';
import type { AppBooks } from './features/businessDate/appBooks';
import type { ApiMetrics } from './operations/apiMetrics';
import type { RateLimitConfig } from './rateLimitConfig';

/** What the API needs to know about the projector: how far it has applied the log, and a way to wait for it. */
export interface ProjectionReader {
  /** Resolves true once the read models include `position` (false when `timeoutMs` passed first). */
  waitForPosition(position: Position, timeoutMs: number): Promise<boolean>;
  /** The position of the last event applied to the read models, undefined before the first. */
  appliedPosition(): Promise<Position | undefined>;
}

/** Everything a router needs. Built once by main.ts (createAppDeps) or by the test harness (testing/testApp.ts). */
export interface AppDeps {
  readonly config: Config;
  /** Keys held outside the database: JWT signing, idempotency fingerprints (apiKeys.ts). */
  readonly keys: ApiKeys;
  readonly logger: Logger;
  /** PostgreSQL: the read models (schema rm, read only), the file store (schema files), the PostgreSQL event store. */
  readonly pool: pg.Pool;
  /**
   * Where GET routes read the read models (rm.*): a pool on DATABASE_READ_URL (a replica, which may lag) when set,
   * else unset and they read `pool`. Never for writes, the event store, idempotency or sessions. See readPoolOf.
   */
  readonly readPool?: pg.Pool;
  /**
   * The projector's checkpoint as `readPool` sees it (it replicates with the rows): X-Consistent-Position waits on
   * it, so the query that follows sees the client's own write. Unset = `projection`.
   */
  readonly readProjection?: ProjectionReader;
  /** The event store (reads: audits, positions); every command goes through `commands`. */
  readonly store: EventStore;
  /** The process's one command handler (shared with the transfer process when they run in one process). */
  readonly commands: CommandHandler;
  /** How a transfer request learns the outcome of its transfer. */
  readonly signals: TransferSignals;
  /** Keys of the payment pins' keyed hashes (PIN_KEYS). */
  readonly pinKeys: Keyring;
  /** The event log's chain keys (CHAIN_KEYS): the audit verifies keyed hashes with them. */
  readonly chainKeys?: Keyring;
  /** The signed checkpoints of the event log (CHECKPOINT_DIR, CHECKPOINT_KEYS), which the audit compares the log with. */
  readonly checkpoints?: AuditCheckpoints;
  /** Checks a payment pin still stored as bcrypt (off the event loop). */
  readonly verifyLegacyPin?: LegacyPinVerifier;
  /** The transfer settings of the routes (credit wait, standing-order catch-up, the after-debit fault hook). */
  readonly transfers: ApiTransferSettings;
  /** Rate limits, token revocations and idempotency records, every key under config.REDIS_PREFIX. */
  readonly redis: Redis;
  readonly projection: ProjectionReader;
  readonly limits: RateLimitConfig;
  readonly metrics: ApiMetrics;
  /** Registries served on the metrics port besides the API's own (the projector's, the worker's). */
  readonly extraMetricRegistries?: readonly Registry[];
  /** Second-factor settings (STAFF_SECOND_FACTOR, TOTP_KEYS), loaded once by the composition root. */
  readonly auth: AuthSettings;
  /** bcrypt cost for passwords and payment pins (at least 10). */
  readonly bcryptCost?: number;
  /** How long a command or a consistent query waits for the projector (default 2000 ms). */
  readonly consistencyTimeoutMs?: number;
  /** Directory of the web build served at /. */
  readonly webDist?: string;
  readonly now?: () => Date;
  /**
   * The business calendar (every money command's business date) and the COB (the manual-mode advance), built once
   * by the composition root (features/businessDate/appBooks.ts, createAppBooks).
   */
  readonly books: AppBooks;
  /** True once the process is stopping: /ready answers 503 so that load balancers send it no more requests. */
  readonly draining?: () => boolean;
}

export const DEFAULT_CONSISTENCY_TIMEOUT_MS = 2000;

/** The pool a GET route reads rm.* from: the replica's when DATABASE_READ_URL is set, else the one pool. */
export function readPoolOf(deps: Pick<AppDeps, 'pool' | 'readPool'>): pg.Pool {
  return deps.readPool ?? deps.pool;
}

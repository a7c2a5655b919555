import type { Config, Logger } from '@bank/platform';
import type { EventStore, Position } from '@bank/eventstore';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Registry } from 'prom-client';
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
  readonly logger: Logger;
  /** PostgreSQL: the read models (schema rm, read only), the file store (schema files), the PostgreSQL event store. */
  readonly pool: pg.Pool;
  readonly store: EventStore;
  /** Rate limits, token revocations and idempotency records, every key under config.REDIS_PREFIX. */
  readonly redis: Redis;
  readonly projection: ProjectionReader;
  readonly limits: RateLimitConfig;
  readonly metrics: ApiMetrics;
  /** Registries merged into GET /api/metrics besides the API's own (the projector's, the worker's). */
  readonly extraMetricRegistries?: readonly Registry[];
  /** bcrypt cost for passwords and payment pins (at least 10). */
  readonly bcryptCost?: number;
  /** How long a command or a consistent query waits for the projector (default 2000 ms). */
  readonly consistencyTimeoutMs?: number;
  /** Directory of the web build served at /. */
  readonly webDist?: string;
  readonly now?: () => Date;
}

export const DEFAULT_CONSISTENCY_TIMEOUT_MS = 2000;

import { z } from 'zod';
import { ConfigError, parseConfig, type Config } from '@bank/platform';

const csv = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

const positiveMs = z.coerce.number().int().positive();

/**
 * The worker's own settings (on top of @bank/platform's Config, which brings DATABASE_URL, REDIS_URL, REDIS_PREFIX,
 * EVENTSTORE_URL, SETTLEMENT_DELAY_MS and AUDIT_CHECK_EVERY_MS). Every variable is optional.
 */
const workerConfigSchema = z.object({
  /** Account numbers the (simulated) settlement network rejects: an external transfer to one fails and is refunded. */
  SETTLEMENT_REJECT_ACCOUNTS: csv.default(['0000000000']),
  /** How often the sweeper re-queues transfers whose next step has no job. */
  TRANSFER_SWEEP_EVERY_MS: positiveMs.default(30_000),
  /**
   * A transfer still only `requested` (no debit recorded) this long after its request is abandoned: marked failed,
   * nothing to refund. The API never appends a payer debit later than half of this after the request.
   */
  TRANSFER_ABANDON_AFTER_MS: positiveMs.default(60_000),
  /** Jobs processed at once per queue by one worker process. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /** Attempts per job (exponential backoff between them) before it is kept as failed; the sweeper retries it later. */
  WORKER_JOB_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  /** First backoff delay; doubles each attempt. */
  WORKER_BACKOFF_MS: positiveMs.default(1000),
  /** BullMQ lock duration: a job whose worker died is taken over after about this long. */
  WORKER_LOCK_DURATION_MS: positiveMs.default(30_000),
  /** How often BullMQ looks for stalled jobs (of dead workers). */
  WORKER_STALLED_INTERVAL_MS: positiveMs.default(30_000),
  /** The stand-alone worker (`npm run worker`) serves its Prometheus metrics on this port at /metrics (unset: none). */
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * Test-only fault injection (ignored when NODE_ENV=production): comma-separated `<point>[:hang|:exit]`, e.g.
   * `before-credit:hang`. See faults.ts for the points.
   */
  WORKER_FAULT: z.string().optional(),
});

export type WorkerSettings = z.infer<typeof workerConfigSchema>;
export type WorkerConfig = Config & WorkerSettings;

/** The worker's own variables only (the API reads TRANSFER_ABANDON_AFTER_MS through it). */
export function parseWorkerSettings(env: Record<string, string | undefined>): WorkerSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = workerConfigSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** Validates the worker's environment; throws a ConfigError naming every bad variable. */
export function parseWorkerConfig(env: Record<string, string | undefined>): WorkerConfig {
  return { ...parseConfig(env), ...parseWorkerSettings(env) };
}

/** Defaults for everything the worker reads (tests override single values). */
export function defaultWorkerSettings(overrides: Partial<WorkerSettings> = {}): WorkerSettings {
  return { ...workerConfigSchema.parse({}), ...overrides };
}

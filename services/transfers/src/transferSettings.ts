import { z } from 'zod';
import { ConfigError } from '@bank/platform';

const positiveMs = z.coerce.number().int().positive();

/**
 * The transfer process's settings (on top of @bank/platform's Config: DATABASE_URL, REDIS_URL, REDIS_PREFIX, …).
 * Every variable is optional.
 */
const transferSettingsSchema = z.object({
  /** How long POST /transaction/transfer waits for an internal transfer's payee credit before answering `pending`. */
  TRANSFER_CREDIT_WAIT_MS: positiveMs.default(5_000),
  /** Transfers the process works on at once (each waits on its own streams; the log is read in order). */
  TRANSFER_PROCESS_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(512),
  /** How often the sweeper looks for unfinished transfers and abandoned old-style requests. */
  TRANSFER_SWEEP_EVERY_MS: positiveMs.default(30_000),
  /**
   * A transfer recorded as requested with no payer debit this long after its request is abandoned (records written
   * before the request became the debit itself; nothing moved).
   */
  TRANSFER_ABANDON_AFTER_MS: positiveMs.default(60_000),
  /** Jobs run at once by one process. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  /** Attempts per job (an ACH file's transmission; exponential backoff between them) before it is kept as failed. */
  WORKER_JOB_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  /** First backoff delay; doubles each attempt. */
  WORKER_BACKOFF_MS: positiveMs.default(1_000),
  /** BullMQ lock duration: a job whose worker died is taken over after about this long. */
  WORKER_LOCK_DURATION_MS: positiveMs.default(30_000),
  /** How often BullMQ looks for stalled jobs (of dead workers). */
  WORKER_STALLED_INTERVAL_MS: positiveMs.default(30_000),
  /** After downtime, occurrences due up to this many days ago are paid on start; older ones are recorded as missed. */
  STANDING_ORDER_CATCH_UP_DAYS: z.coerce.number().int().min(0).max(366).default(3),
  /**
   * Test-only fault injection (ignored when NODE_ENV=production): comma-separated `<point>[:hang|:exit]`, e.g.
   * `after-credit:exit`. See faults.ts for the points.
   */
  TRANSFER_FAULT: z.string().optional(),
});

export type TransferSettings = z.infer<typeof transferSettingsSchema>;

/** Reads the settings from an environment; throws a ConfigError naming every bad variable. */
export function parseTransferSettings(env: Record<string, string | undefined>): TransferSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = transferSettingsSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** Defaults for everything (tests override single values). */
export function defaultTransferSettings(overrides: Partial<TransferSettings> = {}): TransferSettings {
  return { ...transferSettingsSchema.parse({}), ...overrides };
}

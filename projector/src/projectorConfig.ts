import { ConfigError } from '@bank/platform';
import { z } from 'zod';

/**
 * The projector process's own settings (`npm run projector`), on top of @bank/platform's Config (DATABASE_URL,
 * EVENTSTORE_URL, LOG_LEVEL). Every variable is optional.
 */
const projectorSettingsSchema = z.object({
  /** Serve the projector's Prometheus metrics on this port at /metrics (unset: none). */
  PROJECTOR_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Most events per batch transaction: the size of batches when behind (caught up, a batch holds what arrived). */
  PROJECTOR_MAX_BATCH: z.coerce.number().int().min(1).max(100_000).default(5_000),
  /** Connections of the projector's pool (one applies batches; the event store's subscription reads with others). */
  PROJECTOR_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(5),
});

export type ProjectorSettings = z.infer<typeof projectorSettingsSchema>;

/** Validates the projector's variables; throws a ConfigError naming every bad one. */
export function parseProjectorSettings(env: Record<string, string | undefined>): ProjectorSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = projectorSettingsSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

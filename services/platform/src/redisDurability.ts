import type { Logger } from 'pino';

/**
 * What BullMQ's production guide asks of Redis, checked at start-up: AOF persistence (`appendonly yes`: queued jobs
 * and idempotency records survive a Redis restart) and `maxmemory-policy noeviction` (Redis refuses writes when full
 * instead of silently evicting job keys). A warning per setting that differs; nothing stops the start.
 */
export function redisDurabilityWarnings(settings: Readonly<Record<string, string | undefined>>): string[] {
  const warnings: string[] = [];
  if (settings.appendonly !== 'yes') {
    warnings.push(`Redis runs with appendonly ${settings.appendonly ?? '(unknown)'}: queued jobs and idempotency records are lost when it restarts; set appendonly yes (docs/operations.md)`);
  }
  if (settings['maxmemory-policy'] !== 'noeviction') {
    warnings.push(
      `Redis runs with maxmemory-policy ${settings['maxmemory-policy'] ?? '(unknown)'}: when full it may evict queue keys; set maxmemory-policy noeviction (docs/operations.md)`,
    );
  }
  return warnings;
}

/** Reads the two settings with CONFIG GET (a managed Redis may refuse it: then says so) and logs a warning for each that differs. */
export async function warnAboutRedisDurability(redis: { config(subcommand: 'GET', parameter: string): Promise<unknown> }, logger: Pick<Logger, 'warn'>): Promise<void> {
  const settings: Record<string, string | undefined> = {};
  try {
    for (const name of ['appendonly', 'maxmemory-policy']) {
      const answer = await redis.config('GET', name);
      const pair = Array.isArray(answer) ? answer : [];
      settings[name] = typeof pair[1] === 'string' ? pair[1] : undefined;
    }
  } catch (error) {
    logger.warn({ err: error }, 'Could not read the Redis settings (CONFIG GET): make sure it runs with appendonly yes and maxmemory-policy noeviction (docs/operations.md)');
    return;
  }
  for (const warning of redisDurabilityWarnings(settings)) logger.warn(warning);
}

/**
 * The bank's BullMQ queues (every key under REDIS_PREFIX through BullMQ's `prefix` option):
 *   settlement   settle-<transferId>, delayed until SETTLEMENT_DELAY_MS after an external transfer was sent
 *   maintenance  the sweeper (every TRANSFER_SWEEP_EVERY_MS) and the read-model audit (every AUDIT_CHECK_EVERY_MS)
 */
export const SETTLEMENT_QUEUE = 'settlement';
export const MAINTENANCE_QUEUE = 'maintenance';
export const BANK_QUEUES = [SETTLEMENT_QUEUE, MAINTENANCE_QUEUE] as const;

/** BullMQ's prefix is joined to the queue name with ':'; REDIS_PREFIX ('bank:') ends with one already. */
export function bullPrefix(redisPrefix: string): string {
  return redisPrefix.endsWith(':') ? redisPrefix.slice(0, -1) : redisPrefix;
}

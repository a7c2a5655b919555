/**
 * The bank's BullMQ queues (every key under REDIS_PREFIX through BullMQ's `prefix` option):
 *   ach          transmit-<fileId>: an ACH file's upload, retried with backoff (docs/ach.md)
 *   maintenance  the sweeper (every TRANSFER_SWEEP_EVERY_MS) and the read-model audit (every AUDIT_CHECK_EVERY_MS)
 */
export const ACH_QUEUE = 'ach';
export const MAINTENANCE_QUEUE = 'maintenance';
export const BANK_QUEUES = [ACH_QUEUE, MAINTENANCE_QUEUE] as const;

/** BullMQ's prefix is joined to the queue name with ':'; REDIS_PREFIX ('bank:') ends with one already. */
export function bullPrefix(redisPrefix: string): string {
  return redisPrefix.endsWith(':') ? redisPrefix.slice(0, -1) : redisPrefix;
}

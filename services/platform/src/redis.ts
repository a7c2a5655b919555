import { Redis } from 'ioredis';

/** A connection attempt to Redis is given up after this long, and the next one starts afresh (not on SYN backoff). */
export const REDIS_CONNECT_TIMEOUT_MS = 3_000;
/**
 * A command without a byte of answer for this long means the connection is dead (a network that silently drops
 * packets): ioredis destroys the socket, fails the commands waiting on it (the API answers 503) and reconnects.
 * Without it the connection waits for TCP's next retransmission, which after a 30 s outage may be 20 s away. Not for
 * connections that run blocking commands (BullMQ's workers block for seconds by design).
 */
export const REDIS_SOCKET_TIMEOUT_MS = 3_000;

/**
 * The API's connection. Commands asked in one turn of the event loop go out in one write (ioredis' auto-pipelining):
 * at 32 transfers in flight the wrong-pin limit's reads and the idempotency records of many requests share a
 * syscall, where each was a write of its own (the bank's most frequent syscall, docs/benchmarks.md). Each command is
 * still its own command, answered in order; a transaction (`multi`) is sent as before.
 */
export function createRedis(url: string, options: { lazyConnect?: boolean; maxRetriesPerRequest?: number | null } = {}): Redis {
  return new Redis(url, {
    lazyConnect: options.lazyConnect ?? false,
    maxRetriesPerRequest: options.maxRetriesPerRequest ?? 3,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    socketTimeout: REDIS_SOCKET_TIMEOUT_MS,
    enableAutoPipelining: true,
  });
}

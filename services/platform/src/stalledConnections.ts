import type { Socket } from 'node:net';
import pg from 'pg';

/**
 * Frees a pool's slots held by connections whose packets are silently dropped (a blackhole partition).
 *
 * A query sent into a network that drops packets waits for TCP's next retransmission, whose interval doubles with
 * every loss: after a 30 s outage the next one may be 20 s away, and until then the connection holds its pool slot
 * even though the network is back. node-postgres has no `tcp_user_timeout`, and a plain query timeout is not an
 * option (cancelling a COMMIT that waits for a synchronous standby leaves it committed locally and reports success).
 *
 * So: while a client has been checked out longer than `stallMs`, the watch opens a fresh connection to the server
 * and runs `SELECT 1` within `probeMs`. When that probe answers, the server is reachable and the long checkout is
 * just long work (a big transaction, a commit waiting for its standby): nothing is touched. When it does not, the
 * server cannot be reached, and the watch destroys the client-side socket of every client checked out since before
 * the probe began: their queries fail with "Connection terminated" (the API answers 503; the server ends its side of
 * the session when it hears from the client again, rolling back what was not committed; a retry with the
 * Idempotency-Key ends the command exactly once), and the pool opens new connections, whose connect timeout keeps
 * them trying instead of waiting on SYN backoff. Nothing server-side is cancelled.
 */
export interface StallWatchOptions {
  /** A checkout at least this old makes the watch probe the server. */
  readonly stallMs: number;
  /** The probe's bound (connect and SELECT 1). */
  readonly probeMs: number;
  /** Called with the number of connections destroyed after a failed probe. */
  readonly onDestroyed?: (count: number) => void;
}

export interface StallWatch {
  stop(): void;
}

function destroySocket(client: pg.PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
  stream?.destroy(new Error('Connection terminated: the server did not answer a probe while this query waited'));
}

/** True when a fresh connection to the pool's server answers `SELECT 1` within `ms`. */
export async function probeServer(config: pg.ClientConfig, ms: number): Promise<boolean> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: ms, application_name: 'bank-probe' });
  client.on('error', () => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    const answered = (async () => {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    })().catch(() => false);
    return await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
    const stream = (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
    // A probe that got no answer is not ended politely (that would wait on the same silent network).
    stream?.destroy();
  }
}

export function watchStalledConnections(pool: pg.Pool, options: StallWatchOptions): StallWatch {
  const checkedOut = new Map<pg.PoolClient, number>();
  pool.on('acquire', (client) => checkedOut.set(client, Date.now()));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  pool.on('remove', (client) => checkedOut.delete(client));
  let probing = false;
  const check = async () => {
    if ((pool as unknown as { ending?: boolean }).ending) return clearInterval(timer);
    if (probing) return;
    const now = Date.now();
    let oldest = now;
    for (const since of checkedOut.values()) oldest = Math.min(oldest, since);
    if (now - oldest < options.stallMs) return;
    probing = true;
    const probeStartedAt = Date.now();
    try {
      if (await probeServer(pool.options, options.probeMs)) return;
      let destroyed = 0;
      for (const [client, since] of checkedOut) {
        if (since >= probeStartedAt) continue;
        checkedOut.delete(client);
        destroySocket(client);
        destroyed += 1;
      }
      if (destroyed > 0) options.onDestroyed?.(destroyed);
    } finally {
      probing = false;
    }
  };
  const timer = setInterval(() => void check().catch(() => undefined), Math.max(100, Math.min(1_000, options.stallMs / 2)));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

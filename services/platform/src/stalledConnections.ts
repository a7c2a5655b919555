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
 * So: while a query of a checked-out client has waited longer than `stallMs` (a client merely held — the projector
 * keeps one between batches — is not waiting on anything), the watch opens a fresh connection to the server and runs
 * `SELECT 1` within `probeMs`. When the server answers — rows, or an error of its own such as "too many clients" —
 * it is reachable and the long query is just long work (a big transaction, a commit waiting for its standby):
 * nothing is touched. When nothing answers, the server cannot be reached, and the watch destroys the client-side
 * socket of every client whose query was waiting since before the probe began: their queries fail with "Connection terminated" (the API answers 503; the server ends its side of
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

/** An error the server itself sent (it has a SQLSTATE of the server's, not the driver's own 08001 timeout). */
export function isServerAnswer(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && code !== '08001';
}

/** True when a fresh connection to the pool's server answers `SELECT 1` (or refuses it itself) within `ms`. */
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
    })().catch((error: unknown) => isServerAnswer(error));
    return await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
    const stream = (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
    // A probe that got no answer is not ended politely (that would wait on the same silent network).
    stream?.destroy();
  }
}

/**
 * Each checked-out client's queries in flight, through a wrapper of its `query` (installed once per client): when
 * each started, until its promise settles or its callback is called (pool.query passes one). A submittable (a COPY
 * stream) is not followed.
 */
function trackQueries(client: pg.PoolClient, waiting: Map<pg.PoolClient, number[]>): void {
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const first = args[0] as { submit?: unknown } | undefined;
    if (first && typeof first === 'object' && typeof first.submit === 'function') return original(...args);
    const started = Date.now();
    const list = waiting.get(client) ?? [];
    list.push(started);
    waiting.set(client, list);
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      const index = list.indexOf(started);
      if (index >= 0) list.splice(index, 1);
    };
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        done();
        return (last as (...r: unknown[]) => unknown)(...results);
      };
    }
    try {
      const result = original(...args);
      if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(done, done);
      return result;
    } catch (error) {
      done();
      throw error;
    }
  };
}

export function watchStalledConnections(pool: pg.Pool, options: StallWatchOptions): StallWatch {
  const checkedOut = new Set<pg.PoolClient>();
  const waiting = new Map<pg.PoolClient, number[]>();
  const tracked = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    if (!tracked.has(client)) {
      tracked.add(client);
      trackQueries(client, waiting);
    }
    checkedOut.add(client);
  });
  const forget = (client: pg.PoolClient) => {
    checkedOut.delete(client);
    waiting.delete(client);
  };
  pool.on('release', (_error, client) => forget(client));
  pool.on('remove', (client) => forget(client));
  /** When the client's oldest query in flight started (Infinity when none is). */
  const waitingSince = (client: pg.PoolClient): number => Math.min(Infinity, ...(waiting.get(client) ?? []));
  let probing = false;
  const check = async () => {
    if ((pool as unknown as { ending?: boolean }).ending) return clearInterval(timer);
    if (probing) return;
    const now = Date.now();
    let oldest = Infinity;
    for (const client of checkedOut) oldest = Math.min(oldest, waitingSince(client));
    if (now - oldest < options.stallMs) return;
    probing = true;
    const probeStartedAt = Date.now();
    try {
      if (await probeServer(pool.options, options.probeMs)) return;
      let destroyed = 0;
      for (const client of checkedOut) {
        if (waitingSince(client) >= probeStartedAt) continue;
        forget(client);
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

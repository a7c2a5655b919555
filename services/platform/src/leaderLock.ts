import pg from 'pg';
import { sleep } from './sleep';
import { assertWritableServer } from './writableServer';

export interface LeaderSession {
  /** Aborted when the lock's connection is lost (the lock is gone with it). */
  readonly lost: AbortSignal;
  /** Releases the lock and closes its connection. */
  release(): Promise<void>;
}

export interface AcquireLeaderOptions {
  readonly connection: pg.ClientConfig;
  /** What the lock elects a leader of, e.g. 'bank.projector' or 'bank.transfers'. */
  readonly lockClass: string;
  /** The instance set (instances with the same class and name elect one leader). */
  readonly name: string;
  /** How often a standby tries to take the lock. */
  readonly retryMs: number;
  /** Stop trying (resolves undefined). */
  readonly signal: AbortSignal;
  /** Called once when this instance starts waiting as a standby. */
  readonly onStandby?: () => void;
}

/**
 * Waits until this process holds a leader lock: a PostgreSQL session advisory lock (hashtext of class and name) on a
 * dedicated connection, not a pool slot. Exactly one instance holds it; when its process dies, the server closes the
 * connection, the lock is released and a standby's next try takes it. Connection failures are retried.
 *
 * The lock is only taken on a server that accepts writes (assertWritableServer): a lock taken on a standby would make
 * a second leader. Such a connection is closed and the endpoint tried again, as after a connection failure.
 */
export async function acquireLeaderLock(options: AcquireLeaderOptions): Promise<LeaderSession | undefined> {
  const args = [options.lockClass, `leader:${options.name}`];
  let announcedStandby = false;
  let failures = 0;
  while (!options.signal.aborted) {
    const client = new pg.Client({ ...options.connection, application_name: `${options.lockClass}-leader-${options.name}`.slice(0, 63), keepAlive: true });
    const lost = new AbortController();
    client.on('error', () => lost.abort());
    client.on('end', () => lost.abort());
    try {
      await client.connect();
      await assertWritableServer(client);
      failures = 0;
      while (!options.signal.aborted && !lost.signal.aborted) {
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked', args);
        if (rows[0]?.locked) {
          return {
            lost: lost.signal,
            async release() {
              client.removeAllListeners('end');
              if (!lost.signal.aborted) await client.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', args).catch(() => undefined);
              await client.end().catch(() => undefined);
            },
          };
        }
        if (!announcedStandby) {
          announcedStandby = true;
          options.onStandby?.();
        }
        await sleep(options.retryMs, options.signal);
      }
    } catch {
      failures += 1;
      await sleep(Math.min(5_000, 100 * 2 ** failures), options.signal);
    }
    await client.end().catch(() => undefined);
  }
  return undefined;
}

import { sleep } from '@bank/platform';
import pg from 'pg';
import { LOCK_SQL, lockArgs } from './advisoryLocks';

export interface LeaderSession {
  /** Aborted when the lock's connection is lost (the lock is gone with it). */
  readonly lost: AbortSignal;
  /** Releases the lock and closes its connection. */
  release(): Promise<void>;
}

export interface AcquireLeaderOptions {
  readonly connection: pg.ClientConfig;
  readonly name: string;
  /** How often a standby tries to take the lock. */
  readonly retryMs: number;
  /** Stop trying (resolves undefined). */
  readonly signal: AbortSignal;
  /** Called once when this instance starts waiting as a standby. */
  readonly onStandby?: () => void;
}

/**
 * Waits until this process holds the projector's leader lock: a PostgreSQL session advisory lock on a dedicated
 * connection (not a pool slot). Exactly one instance holds it; when its process dies, the server closes the
 * connection, the lock is released and a standby's next try takes it. Connection failures are retried.
 */
export async function acquireLeaderLock(options: AcquireLeaderOptions): Promise<LeaderSession | undefined> {
  let announcedStandby = false;
  let failures = 0;
  while (!options.signal.aborted) {
    const client = new pg.Client({ ...options.connection, application_name: `bank-projector-leader-${options.name}`, keepAlive: true });
    const lost = new AbortController();
    client.on('error', () => lost.abort());
    client.on('end', () => lost.abort());
    try {
      await client.connect();
      failures = 0;
      while (!options.signal.aborted && !lost.signal.aborted) {
        const { rows } = await client.query<{ locked: boolean }>(LOCK_SQL.tryLock, lockArgs('leader', options.name));
        if (rows[0]?.locked) {
          return {
            lost: lost.signal,
            async release() {
              client.removeAllListeners('end');
              if (!lost.signal.aborted) await client.query(LOCK_SQL.unlock, lockArgs('leader', options.name)).catch(() => undefined);
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

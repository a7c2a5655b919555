import { formatPosition, type Position } from '@bank/eventstore';
import pg from 'pg';
import { CHECKPOINT_CHANNEL, DEFAULT_PROJECTOR_NAME, positionOrUndefined } from '../checkpoint/checkpointStore';
import { READ_MODEL_SCHEMA } from '../schema/readModelSchema';
import { readModelTables } from '../schema/readModelTables';

export interface ProjectionReader {
  /** The position of the last event applied to the live read models (undefined: none yet). */
  appliedPosition(): Promise<Position | undefined>;
  /**
   * Resolves true as soon as the read models have applied `position` (or a later one), false after `timeoutMs`.
   * Any number of concurrent waiters share one LISTEN connection and one poller.
   */
  waitForPosition(position: Position, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface ProjectionReaderOptions {
  /** Projector (checkpoint) name. Default 'main'. */
  readonly name?: string;
  /**
   * While someone waits and no LISTEN connection is up, the checkpoint is polled this often. Default 100 ms. With
   * the connection up, every advance arrives as a notification (none is lost on a live connection; a reconnect reads
   * the checkpoint again), so the poll is only a safety net, every `listeningPollIntervalMs` (default 1 s).
   */
  readonly pollIntervalMs?: number;
  readonly listeningPollIntervalMs?: number;
  /** LISTEN for checkpoint advances (default true); without it, waiting relies on polling alone. */
  readonly listen?: boolean;
}

interface Waiter {
  readonly target: string;
  readonly resolve: (reached: boolean) => void;
  readonly timer: NodeJS.Timeout;
}

/** Reads the projector's applied position for the API (X-Consistent-Position, readiness, lag). */
export function createProjectionReader(pool: pg.Pool, options: ProjectionReaderOptions = {}): ProjectionReader {
  const name = options.name ?? DEFAULT_PROJECTOR_NAME;
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  const listeningPollIntervalMs = Math.max(pollIntervalMs, options.listeningPollIntervalMs ?? 1_000);
  const sql = `SELECT position FROM ${readModelTables(READ_MODEL_SCHEMA).checkpoint} WHERE name = $1`;
  const waiters = new Set<Waiter>();
  let latest: string | null = null;
  let inFlight: Promise<string | null> | undefined;
  let polling = false;
  let wakePoller: (() => void) | undefined;
  let listener: pg.Client | undefined;
  let listening: Promise<void> | undefined;
  let closed = false;

  function observe(position: string | null): void {
    if (position !== null && (latest === null || position > latest)) latest = position;
    if (latest === null) return;
    for (const waiter of waiters) {
      if (latest >= waiter.target) settle(waiter, true);
    }
  }

  function settle(waiter: Waiter, reached: boolean): void {
    if (!waiters.delete(waiter)) return;
    clearTimeout(waiter.timer);
    waiter.resolve(reached);
  }

  /** One query at a time, shared by every caller. */
  function fetch(): Promise<string | null> {
    inFlight ??= pool
      .query<{ position: string | null }>(sql, [name])
      .then(
        (result) => result.rows[0]?.position ?? null,
        (error: { code?: string }) => {
          if (error.code === '42P01' || error.code === '3F000') return null; // read models not created yet
          throw error;
        },
      )
      .then((position) => {
        observe(position);
        return position;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  async function poll(): Promise<void> {
    if (polling) return;
    polling = true;
    try {
      while (waiters.size > 0 && !closed) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, listener ? listeningPollIntervalMs : pollIntervalMs);
          wakePoller = done;
          function done() {
            clearTimeout(timer);
            wakePoller = undefined;
            resolve();
          }
        });
        if (waiters.size === 0 || closed) break;
        await fetch().catch(() => undefined);
      }
    } finally {
      polling = false;
    }
  }

  function listen(): void {
    if (options.listen === false || listener || listening || closed) return;
    const client = new pg.Client({ ...pool.options, application_name: 'bank-projection-reader' });
    const drop = () => {
      if (listener === client) listener = undefined;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
    };
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', (message) => {
      const [who, position] = (message.payload ?? '').split(' ');
      if (who === name && position) observe(position);
      else wakePoller?.();
    });
    listening = client
      .connect()
      .then(() => client.query(`LISTEN ${pg.escapeIdentifier(CHECKPOINT_CHANNEL)}`))
      .then(() => {
        if (closed) return drop();
        listener = client;
        // Anything that moved before LISTEN took effect is caught by this read.
        void fetch().catch(() => undefined);
      })
      .catch(drop)
      .finally(() => {
        listening = undefined;
      });
  }

  return {
    async appliedPosition() {
      return positionOrUndefined(await fetch());
    },

    async waitForPosition(position, timeoutMs) {
      const target = formatPosition(position);
      if (latest !== null && latest >= target) return true;
      // Listening: `latest` follows every advance already, and the one that covers `position` is on its way. Else
      // the checkpoint is read now (one query, shared by every caller waiting for it).
      if (!listener) {
        // A reader asked to wait once is asked again: the LISTEN connection opens now, so that the next waits are
        // answered by the notifications rather than by reading the checkpoint.
        listen();
        const current = await fetch();
        if (current !== null && current >= target) return true;
      }
      if (timeoutMs <= 0 || closed) return false;
      return new Promise<boolean>((resolve) => {
        const waiter: Waiter = { target, resolve, timer: setTimeout(() => settle(waiter, false), timeoutMs) };
        waiters.add(waiter);
        listen();
        void poll();
      });
    },

    async close() {
      closed = true;
      for (const waiter of [...waiters]) settle(waiter, false);
      wakePoller?.();
      await listening;
      const client = listener;
      listener = undefined;
      if (client) {
        client.removeAllListeners('end');
        await client.end().catch(() => undefined);
      }
    },
  };
}

import { formatPosition, type Position } from '@bank/eventstore';
import pg from 'pg';
import { CHECKPOINT_CHANNEL } from '../src/checkpoint/checkpointStore';

/**
 * Tells when the live read models have applied a position: one LISTEN on the projector's checkpoint
 * notifications (sent in the batch's transaction, so delivered when its commit is visible), and a poll of the
 * checkpoint every 200 ms in case one is lost. Costs the measured system no query per event.
 */
export async function watchAppliedPosition(pool: pg.Pool, name = 'main') {
  let latest = '';
  const waiters = new Set<{ target: string; resolve: () => void }>();
  const observe = (position: string | null | undefined) => {
    if (!position || position <= latest) return;
    latest = position;
    for (const waiter of waiters) {
      if (waiter.target <= latest) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };
  const listener = new pg.Client({ ...pool.options, application_name: 'bank-bench-watcher' });
  listener.on('error', () => undefined);
  await listener.connect();
  listener.on('notification', (message) => {
    const [who, position] = (message.payload ?? '').split(' ');
    if (who === name) observe(position);
  });
  await listener.query(`LISTEN ${pg.escapeIdentifier(CHECKPOINT_CHANNEL)}`);
  const poll = async () => {
    const { rows } = await pool.query<{ position: string | null }>(`SELECT position FROM rm.checkpoint WHERE name = $1`, [name]).catch(() => ({ rows: [] }));
    observe(rows[0]?.position);
  };
  await poll();
  const timer = setInterval(() => void poll(), 200);
  return {
    /** Resolves once the read models have applied `position`. */
    applied(position: Position): Promise<void> {
      const target = formatPosition(position);
      if (target <= latest) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.add({ target, resolve }));
    },
    get latest(): string {
      return latest;
    },
    async close(): Promise<void> {
      clearInterval(timer);
      await listener.end().catch(() => undefined);
    },
  };
}

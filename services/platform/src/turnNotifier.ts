import type pg from 'pg';
import { createTurnBatcher } from './turnBatcher';

/** The most notifications in one transaction. */
const NOTIFICATIONS_IN_ONE_TRANSACTION = 100;

export type Notify = (channel: string, payload: string | null) => Promise<void>;

function createTurnNotifier(pool: pg.Pool): Notify {
  const send = createTurnBatcher<{ channel: string; payload: string | null }, void>({
    runOne: async ({ channel, payload }) => {
      await pool.query({ name: 'platform.notify', text: 'SELECT pg_notify($1, $2)', values: [channel, payload] });
    },
    runMany: async (notifications) => {
      await pool.query({
        name: 'platform.notify_many',
        text: 'SELECT pg_notify(n.channel, n.payload) FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS n(channel, payload, i) ORDER BY n.i',
        values: [notifications.map((n) => n.channel), notifications.map((n) => n.payload)],
      });
      return notifications.map(() => undefined);
    },
    maxBatch: NOTIFICATIONS_IN_ONE_TRANSACTION,
  });
  return (channel, payload) => send({ channel, payload });
}

const notifiers = new WeakMap<pg.Pool, Notify>();

/**
 * NOTIFY in a transaction of its own, after what it announces committed (see the event store's appendNotifier for why
 * not in that transaction), shared by everything in the process that notifies on `pool`: the notifications asked in
 * one turn of the event loop (the event store's "events appended", the transfer process's outcomes, …) go as one
 * notification-only transaction, in the order they were asked.
 */
export function turnNotifier(pool: pg.Pool): Notify {
  let notify = notifiers.get(pool);
  if (!notify) {
    notify = createTurnNotifier(pool);
    notifiers.set(pool, notify);
  }
  return notify;
}

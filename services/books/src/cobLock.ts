import { assertWritableServer } from '@bank/platform';
import pg from 'pg';

/** The advisory lock every COB run holds: hashtext of these two (the same pair in every process of the bank). */
const LOCK_ARGS = ['bank.cob', 'close-of-business'];

/**
 * Runs `work` holding the bank's COB lock: a PostgreSQL session advisory lock on a connection of its own (not a pool
 * slot, so the COB's own queries never wait for the slot the lock holds). Two runners, a runner and an advance, or
 * two advances thus never work on the business days at once; when a process dies mid-COB the server closes its
 * connection and the lock goes with it. `wait: false` answers `{ ran: false }` at once when another process holds
 * it (the worker's tick: the holder is already closing the dates); `wait: true` queues behind it (an advance).
 * The businessDays stream's expected revision still guards every append, should the lock ever be lost mid-run.
 */
export async function withCobLock<T>(connection: pg.ClientConfig, wait: boolean, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  const client = new pg.Client({ ...connection, application_name: 'bank-cob-lock' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    // On a standby the lock would exclude no one on the primary (a switchover's moment): 503 to an advance, the
    // worker's next tick tries again.
    await assertWritableServer(client);
    if (wait) {
      await client.query('SELECT pg_advisory_lock(hashtext($1), hashtext($2))', LOCK_ARGS);
    } else {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked', LOCK_ARGS);
      if (!rows[0]?.locked) return { ran: false };
    }
    try {
      return { ran: true, value: await work() };
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', LOCK_ARGS).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

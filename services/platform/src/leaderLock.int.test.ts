import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLeaderLock, type LeaderSession } from './leaderLock';

/** Leader locks on the tests' PostgreSQL (TEST_DATABASE_URL, else localhost, as @bank/testkit); each test its own name. */
const connection: pg.ClientConfig = { connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' };
const lockClass = 'test.leaderLock';
const held: LeaderSession[] = [];
const stops: AbortController[] = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) stop.abort();
  await Promise.all(held.splice(0).map((session) => session.release()));
});

function contend(name: string, onStandby?: () => void): { session: Promise<LeaderSession | undefined>; stop: AbortController } {
  const stop = new AbortController();
  stops.push(stop);
  const session = acquireLeaderLock({ connection, lockClass, name, retryMs: 20, signal: stop.signal, onStandby }).then((won) => {
    if (won) held.push(won);
    return won;
  });
  return { session, stop };
}

function uniqueName(): string {
  return `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

describe('the leader lock', () => {
  it('elects one leader; the standby waits, says so once, and takes over when the leader releases', async () => {
    const name = uniqueName();
    const leader = await contend(name).session;
    expect(leader).toBeDefined();
    let standbyCalls = 0;
    const second = contend(name, () => (standbyCalls += 1));
    const outcome = await Promise.race([second.session.then(() => 'won'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))]);
    expect(outcome).toBe('waiting');
    expect(standbyCalls).toBe(1);
    await leader!.release();
    const next = await second.session;
    expect(next).toBeDefined();
    expect(next!.lost.aborted).toBe(false);
  });

  it('says the lock is lost when its connection ends, and another instance takes it', async () => {
    const name = uniqueName();
    const leader = await contend(name).session;
    const admin = new pg.Client(connection);
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)`,
        [`${lockClass}-leader-${name}`.slice(0, 63)],
      );
      expect(rows).toHaveLength(1);
      const second = contend(name);
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      // The loss may have been seen already (the end of the connection can come before this line runs).
      if (!leader!.lost.aborted) await new Promise<void>((resolve) => leader!.lost.addEventListener('abort', () => resolve(), { once: true }));
      expect(await second.session).toBeDefined();
    } finally {
      await admin.end();
    }
  });

  it('gives up and resolves nothing when stopped as a standby', async () => {
    const name = uniqueName();
    await contend(name).session;
    const second = contend(name);
    setTimeout(() => second.stop.abort(), 100);
    expect(await second.session).toBeUndefined();
  });
});

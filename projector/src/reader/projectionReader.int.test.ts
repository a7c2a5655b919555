import { formatPosition } from '@bank/eventstore';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startProjector, type ProjectorHandle } from '../runner/projectorRunner';
import { appendHistory } from '../testing/appendHistory';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { sampleHistory } from '../testing/sampleHistory';
import { createProjectionReader, type ProjectionReader } from './projectionReader';
import { untilHeadApplied } from '../testing/untilHeadApplied';

let db: ProjectorTestDatabase;
let projector: ProjectorHandle | undefined;
const readers: ProjectionReader[] = [];
const history = sampleHistory();

function reader(pool: pg.Pool = db.pool, options: Parameters<typeof createProjectionReader>[1] = {}): ProjectionReader {
  const created = createProjectionReader(pool, options);
  readers.push(created);
  return created;
}

/** A pool whose query() calls are counted (the reader's LISTEN client is separate). */
function countingPool(): { pool: pg.Pool; count: () => number } {
  let queries = 0;
  const pool = Object.create(db.pool, {
    query: { value: (...args: Parameters<pg.Pool['query']>) => ((queries += 1), (db.pool.query as (...a: unknown[]) => unknown)(...args)) },
  }) as pg.Pool;
  return { pool, count: () => queries };
}

beforeAll(async () => {
  db = await createProjectorTestDatabase('projection_reader');
});
afterAll(async () => {
  await db.close();
});
afterEach(async () => {
  await Promise.all(readers.splice(0).map((r) => r.close()));
  await projector?.stop();
  projector = undefined;
});

describe('the projection reader', () => {
  it('reports no position before the read models exist, then the applied one', async () => {
    expect(await reader().appliedPosition()).toBeUndefined();
    const last = await appendHistory(db.store, history.slice(0, 5));
    projector = startProjector({ pool: db.pool, store: db.store });
    await projector.caughtUp;
    await untilHeadApplied(db.pool, db.store, { position: last! });
    expect(formatPosition((await reader().appliedPosition())!)).toBe(formatPosition(last!));
  });

  it('waits until a position is applied, and answers false when it is not within the timeout', async () => {
    projector = startProjector({ pool: db.pool, store: db.store });
    await projector.caughtUp;
    const r = reader();
    const last = await appendHistory(db.store, history.slice(5, 15));
    expect(await r.waitForPosition(last!, 10_000)).toBe(true);
    expect(await r.waitForPosition(last!, 0)).toBe(true);
    const future = { commit: last!.commit + 1_000_000n, prepare: last!.prepare + 1_000n };
    expect(await r.waitForPosition(future, 150)).toBe(false);
  });

  it('serves many concurrent waiters with one poller', async () => {
    const { pool, count } = countingPool();
    const r = reader(pool, { listen: false, pollIntervalMs: 100 });
    const started = Date.now();
    const last = await appendHistory(db.store, history.slice(15, 25));
    const waiters = Array.from({ length: 300 }, () => r.waitForPosition(last!, 20_000));
    projector = startProjector({ pool: db.pool, store: db.store });
    expect(await Promise.all(waiters)).toEqual(waiters.map(() => true));
    const polls = (Date.now() - started) / 100;
    expect(count()).toBeLessThanOrEqual(Math.ceil(polls) + 3);
  });

  it('wakes waiters on the checkpoint notification', async () => {
    projector = startProjector({ pool: db.pool, store: db.store });
    await projector.caughtUp;
    const r = reader(db.pool, { pollIntervalMs: 60_000 });
    await r.appliedPosition();
    const last = await appendHistory(db.store, history.slice(25, 30));
    // With a one-minute poll, only the NOTIFY can resolve this within the 20 s timeout.
    expect(await r.waitForPosition(last!, 20_000)).toBe(true);
  });

  it('with its LISTEN connection up, waits without reading the checkpoint: the notification answers', async () => {
    projector = startProjector({ pool: db.pool, store: db.store });
    await projector.caughtUp;
    const counting = countingPool();
    const r = reader(counting.pool, { pollIntervalMs: 60_000 });
    // A first wait opens the LISTEN connection (and reads the checkpoint once it listens), even when the projector
    // was already there and the first read answered it.
    expect(await r.waitForPosition((await appendHistory(db.store, history.slice(30, 32)))!, 20_000)).toBe(true);
    for (const deadline = Date.now() + 20_000; ; ) {
      const { rows } = await db.pool.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'bank-projection-reader' AND query ILIKE 'LISTEN%'`,
      );
      if (rows.length > 0) break;
      if (Date.now() > deadline) throw new Error('the reader never opened its LISTEN connection');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = counting.count();
    for (let i = 32; i < 38; i += 2) {
      const last = await appendHistory(db.store, history.slice(i, i + 2));
      expect(await r.waitForPosition(last!, 20_000)).toBe(true);
    }
    expect(counting.count()).toBe(before);
  });
});

import { createPostgresEventStore, ensureEventStoreSchema, type EventStore } from '@bank/eventstore';
import { createPool } from '@bank/platform';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProjector } from '../runner/projectorRunner';
import { appendConcurrently } from '../testing/appendConcurrently';
import { startPrivatePostgres, type PrivatePostgres } from '../testing/privatePostgres';
import { generateWorkload } from '../testing/randomWorkload';
import { readModelSnapshot } from '../testing/readModelSnapshot';
import { rebuildProjections } from './rebuildProjections';
import { untilHeadApplied } from '../testing/untilHeadApplied';

let server: PrivatePostgres;
let pool: pg.Pool;
let store: EventStore;

function connect(): void {
  pool = createPool(server.url, 8);
  store = createPostgresEventStore({ pool, pollIntervalMs: 50 });
}

beforeAll(async () => {
  server = await startPrivatePostgres();
  connect();
  await ensureEventStoreSchema(pool);
}, 120_000);
afterAll(async () => {
  await store?.close();
  await pool?.end();
  await server?.destroy();
}, 60_000);

describe('an UNLOGGED rebuild when PostgreSQL crashes in the middle of its bulk load (a private server, killed)', () => {
  it('loses only its unlogged build schema: the live read models are intact, and the next rebuild starts over and swaps in the same tables', async () => {
    await appendConcurrently(store, generateWorkload({ events: 6_000, seed: 41 }));
    const live = startProjector({ pool, store });
    await live.caughtUp;
    await untilHeadApplied(pool, store);
    await live.stop();
    const before = await readModelSnapshot(pool);

    let crashed: Promise<void> | undefined;
    const failed = await rebuildProjections({
      pool,
      store,
      batchSize: 500,
      unlogged: true,
      onProgress: ({ phase, events }) => {
        if (phase === 'load' && events >= 2_000) crashed ??= server.crash();
      },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(Error);
    expect(crashed).toBeDefined();
    await crashed;

    await store.close();
    await pool.end().catch(() => undefined);
    await server.start();
    connect();
    // Crash recovery emptied the build schema's unlogged tables (those the load only appends to, such as the journal,
    // were loaded logged: the schema is dropped all the same); the logged live ones came back whole.
    const { rows: builds } = await pool.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rm_build_%'`);
    expect(builds).toHaveLength(1);
    const build = builds[0]!.nspname;
    const { rows: persistence } = await pool.query(`SELECT DISTINCT relpersistence FROM pg_class WHERE relnamespace = $1::regnamespace AND relname = 'users'`, [build]);
    expect(persistence).toEqual([{ relpersistence: 'u' }]);
    const { rows: left } = await pool.query(`SELECT count(*)::int AS n FROM "${build}".users`);
    expect(left).toEqual([{ n: 0 }]);
    expect(await readModelSnapshot(pool)).toEqual(before);

    const result = await rebuildProjections({ pool, store, batchSize: 500 });
    expect(result.events).toBeGreaterThanOrEqual(6_000);
    expect(await readModelSnapshot(pool)).toEqual(before);
    const { rows: schemas } = await pool.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rm%' ORDER BY 1`);
    expect(schemas).toEqual([{ nspname: 'rm' }]);
  }, 180_000);
});

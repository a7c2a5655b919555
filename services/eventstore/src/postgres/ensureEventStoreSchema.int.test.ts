import { createPool } from '@bank/platform';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvents } from '../conformance/conformanceHelpers';
import { ensureEventStoreSchema } from './ensureEventStoreSchema';
import { createPostgresEventStore } from './postgresEventStore';

let database: TestDatabase;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  database = await createTestDatabase('eventstore_schema');
  pools.push(createPool(database.url, 4), createPool(database.url, 4), createPool(database.url, 4));
});

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await database?.drop();
});

describe('ensureEventStoreSchema', () => {
  it('creates the schema when several processes start at once, and again without harm', async () => {
    await Promise.all(pools.map((pool) => ensureEventStoreSchema(pool, 'es_race')));
    await ensureEventStoreSchema(pools[0]!, 'es_race');

    const { rows } = await pools[0]!.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'es_race' AND c.relkind IN ('r', 'S') ORDER BY 1`,
    );
    expect(rows.map((row) => row.name)).toEqual(['events', 'events_global_position_seq', 'streams']);
    const store = createPostgresEventStore({ pool: pools[1]!, schema: 'es_race' });
    await expect(store.append('schema-check', newEvents(1), 'no_stream')).resolves.toMatchObject({ nextExpectedRevision: 0n });
    await store.close();
  });

  // Every second start finds the version marker gone, as after an upgrade, and so runs the DDL under live appends.
  it('runs at start-up, and upgrades, while other processes append, without deadlocking them or itself', async () => {
    await ensureEventStoreSchema(pools[0]!, 'es_live');
    const store = createPostgresEventStore({ pool: pools[0]!, schema: 'es_live' });
    const until = Date.now() + 2_000;
    const errors: unknown[] = [];
    let appended = 0;
    let ensured = 0;
    const appender = async (writer: number) => {
      for (let i = 0; Date.now() < until; i += 1) {
        await store.append(`live-${writer}-${i}`, newEvents(2), 'no_stream').then(
          () => (appended += 1),
          (error: unknown) => errors.push(error),
        );
      }
    };
    const starter = async (pool: pg.Pool) => {
      for (let i = 0; Date.now() < until; i += 1) {
        if (i % 2 === 1) await pool.query('COMMENT ON SCHEMA es_live IS NULL');
        await ensureEventStoreSchema(pool, 'es_live').then(
          () => (ensured += 1),
          (error: unknown) => errors.push(error),
        );
      }
    };
    await Promise.all([appender(1), appender(2), appender(3), starter(pools[1]!), starter(pools[2]!)]);
    await store.close();
    expect(errors).toEqual([]);
    expect(appended).toBeGreaterThan(10);
    expect(ensured).toBeGreaterThan(10);
  });

  it('refuses a schema name that is not a plain lower-case identifier', async () => {
    await expect(ensureEventStoreSchema(pools[0]!, 'bad"; DROP TABLE x; --')).rejects.toThrow(/schema name/);
    expect(() => createPostgresEventStore({ pool: pools[0]!, schema: 'Mixed' })).toThrow(/schema name/);
  });
});

import { createPool } from '@bank/platform';
import { createTestDatabase, type TestDatabase } from '@bank/platform/testing';
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

  it('refuses a schema name that is not a plain lower-case identifier', async () => {
    await expect(ensureEventStoreSchema(pools[0]!, 'bad"; DROP TABLE x; --')).rejects.toThrow(/schema name/);
    expect(() => createPostgresEventStore({ pool: pools[0]!, schema: 'Mixed' })).toThrow(/schema name/);
  });
});

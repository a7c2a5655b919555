import { createPool } from '@bank/platform';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvents } from './conformance/conformanceHelpers';
import { createEventStore } from './createEventStore';

let database: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase('eventstore_factory');
  pool = createPool(database.url, 4);
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

describe('createEventStore', () => {
  it('uses the PostgreSQL event store on the given pool, creating its schema, when EVENTSTORE_URL is unset', async () => {
    const store = await createEventStore({ EVENTSTORE_URL: undefined }, { pool });
    try {
      await store.append('factory-1', newEvents(2), 'no_stream');
      expect(await store.readStream('factory-1')).toHaveLength(2);
      const { rows } = await pool.query(`SELECT count(*)::int AS count FROM eventstore.events`);
      expect(rows[0]).toEqual({ count: 2 });
    } finally {
      await store.close();
    }
  });

  it('uses the EventStoreDB event store for an esdb:// URL, without touching PostgreSQL', async () => {
    const before = await pool.query(`SELECT count(*)::int AS count FROM pg_namespace WHERE nspname = 'eventstore'`);
    const store = await createEventStore({ EVENTSTORE_URL: 'esdb://127.0.0.1:1?tls=false' }, { pool });
    await store.close();
    const after = await pool.query(`SELECT count(*)::int AS count FROM pg_namespace WHERE nspname = 'eventstore'`);
    expect(after.rows).toEqual(before.rows);
    expect(store.positionToken({ commit: 42n, prepare: 40n })).toBe('42');
  });
});

import { createPostgresEventStore, ensureEventStoreSchema, type EventStore } from '@bank/eventstore';
import { createPool } from '@bank/platform';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import type pg from 'pg';

export interface ProjectorTestDatabase {
  readonly database: TestDatabase;
  readonly url: string;
  readonly pool: pg.Pool;
  readonly store: EventStore;
  close(): Promise<void>;
}

/** A fresh PostgreSQL database with the event store's schema, a pool and a PostgreSQL event store on it. */
export async function createProjectorTestDatabase(label: string, options: { pollIntervalMs?: number } = {}): Promise<ProjectorTestDatabase> {
  const database = await createTestDatabase(label);
  const pool = createPool(database.url, 10);
  await ensureEventStoreSchema(pool);
  const store = createPostgresEventStore({ pool, pollIntervalMs: options.pollIntervalMs ?? 50 });
  return {
    database,
    url: database.url,
    pool,
    store,
    async close() {
      await store.close();
      await pool.end();
      await database.drop();
    },
  };
}

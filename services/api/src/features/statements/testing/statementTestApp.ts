import { createPostgresEventStore, ensureEventStoreSchema, type EventStore } from '@bank/eventstore';
import { createLogger, createPool } from '@bank/platform';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import express from 'express';
import type pg from 'pg';
import { errorHandler } from '../../../http/errorHandler';
import { auditRoutes } from '../../audit/auditRouter';

/** The audit routes (statements and balances-at among them) on a bare express app over a fresh PostgreSQL event store. */
export interface StatementTestApp {
  readonly app: express.Express;
  readonly store: EventStore;
  close(): Promise<void>;
}

export async function createStatementTestApp(
  label: string,
  wrapStore: (store: EventStore) => EventStore = (store) => store,
  before: express.RequestHandler = (_req, _res, next) => next(),
): Promise<StatementTestApp> {
  const database: TestDatabase = await createTestDatabase(label);
  const pool: pg.Pool = createPool(database.url, 4);
  await ensureEventStoreSchema(pool);
  const store = createPostgresEventStore({ pool });
  const app = express();
  app.use(before);
  app.use('/audit', auditRoutes({ store: wrapStore(store), pool, verify: () => Promise.reject(new Error('not in these tests')) }));
  app.use(errorHandler(createLogger('statements-test', 'silent')));
  return {
    app,
    store,
    async close() {
      await store.close();
      await pool.end();
      await database.drop();
    },
  };
}

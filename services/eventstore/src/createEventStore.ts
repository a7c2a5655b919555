import type { Config } from '@bank/platform';
import type pg from 'pg';
import { createEsdbEventStore } from './esdb/esdbEventStore';
import type { EventStore } from './eventStore';
import type { EventStoreLogger } from './eventStoreLogger';
import { ensureEventStoreSchema } from './postgres/ensureEventStoreSchema';
import { createPostgresEventStore } from './postgres/postgresEventStore';

export interface EventStoreDeps {
  /** The application's PostgreSQL pool; the PostgreSQL event store uses it (and does not end it). */
  readonly pool: pg.Pool;
  readonly logger?: EventStoreLogger;
}

/**
 * The configured event store: EventStoreDB when EVENTSTORE_URL is set (esdb://…), otherwise the PostgreSQL
 * event store on the given pool, its schema created when missing.
 */
export async function createEventStore(config: Pick<Config, 'EVENTSTORE_URL'>, deps: EventStoreDeps): Promise<EventStore> {
  if (config.EVENTSTORE_URL) {
    return createEsdbEventStore({ connectionString: config.EVENTSTORE_URL, logger: deps.logger });
  }
  await ensureEventStoreSchema(deps.pool);
  return createPostgresEventStore({ pool: deps.pool, logger: deps.logger });
}

import type pg from 'pg';
import { appendBatchFunctionSql } from './appendBatchFunction';
import { DEFAULT_SCHEMA, eventStoreSchema, type EventStoreSchema } from './eventStoreSchema';

function tablesSql(s: EventStoreSchema): string {
  return `
CREATE SCHEMA IF NOT EXISTS ${s.schema};

CREATE TABLE IF NOT EXISTS ${s.streams} (
  stream_id text PRIMARY KEY,
  -- revision of the stream's last event (0-based, as in the port); a stream has a row once it has events
  revision bigint NOT NULL CHECK (revision >= 0)
);

CREATE SEQUENCE IF NOT EXISTS ${s.sequence} AS bigint;

CREATE TABLE IF NOT EXISTS ${s.events} (
  global_position bigint PRIMARY KEY DEFAULT nextval('${s.sequence}'),
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_id text NOT NULL,
  revision bigint NOT NULL CHECK (revision >= 0),
  event_id uuid NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT events_stream_revision_key UNIQUE (stream_id, revision),
  CONSTRAINT events_stream_event_id_key UNIQUE (stream_id, event_id)
);

ALTER SEQUENCE ${s.sequence} OWNED BY ${s.events}.global_position;

-- The global log is read in (transaction_id, global_position) order.
CREATE INDEX IF NOT EXISTS events_transaction_position_idx ON ${s.events} (transaction_id, global_position);
`;
}

/**
 * Creates the event store's schema, tables and append function when missing; safe to run at every start and
 * from several processes at once (the DDL runs in one transaction under an advisory lock).
 */
export async function ensureEventStoreSchema(pool: pg.Pool, schemaName: string = DEFAULT_SCHEMA): Promise<void> {
  const s = eventStoreSchema(schemaName);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', ['bank.eventstore.schema', s.name]);
    await client.query(tablesSql(s));
    await client.query(appendBatchFunctionSql(s));
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

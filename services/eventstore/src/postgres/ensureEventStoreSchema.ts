import { createHash } from 'node:crypto';
import { inTransaction } from '@bank/platform';
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
${EVENTS_UNIQUE_KEYS.map((key) => `  CONSTRAINT ${key.name} UNIQUE (${key.columns})`).join(',\n')}
);

ALTER SEQUENCE ${s.sequence} OWNED BY ${s.events}.global_position;

-- The global log is read in (transaction_id, global_position) order.
${EVENTS_INDEXES.map((index) => createIndexSql(s, index)).join('\n')}
${appendOnlySql(s)}`;
}

/** A secondary index of the events table: its name and columns (the one definition the DDL and a bulk load use). */
export interface EventsIndex {
  readonly name: string;
  readonly columns: string;
  /** The index's access method when not a B-tree. */
  readonly method?: 'brin';
  /** Its storage parameters (`WITH (…)`). */
  readonly options?: string;
}

/** The unique constraints of the events table: a stream's revisions, and its event ids (idempotent appends). */
export const EVENTS_UNIQUE_KEYS: readonly EventsIndex[] = [
  { name: 'events_stream_revision_key', columns: 'stream_id, revision' },
  { name: 'events_stream_event_id_key', columns: 'stream_id, event_id' },
];

/**
 * The plain indexes of the events table: the global log's read order, and the instants the events were recorded
 * (`created`): a BRIN index, a few pages for the whole log and next to nothing an append, since the table only
 * grows and its rows lie in the order they were recorded (within the clock margin of readRecordedSince). The
 * trial balance at an instant finds the day after a close by it (readRecordedSince).
 */
export const EVENTS_INDEXES: readonly EventsIndex[] = [
  { name: 'events_transaction_position_idx', columns: 'transaction_id, global_position' },
  // autosummarize: each block range is summarized once filled (an autovacuum work item), not at the next vacuum. A
  // range not summarized matches every query: without it, the log appended since the table's last vacuum (up to a
  // fifth of it with the default insert threshold) would be read by every read by instant.
  { name: 'events_created_brin', columns: 'created', method: 'brin', options: 'autosummarize = on' },
];

/** The DDL of one of EVENTS_INDEXES on `table` (schema-qualified), when missing. */
export function createEventsIndexSql(table: string, index: EventsIndex): string {
  return `CREATE INDEX IF NOT EXISTS ${index.name} ON ${table}${index.method ? ` USING ${index.method}` : ''} (${index.columns})${index.options ? ` WITH (${index.options})` : ''};`;
}

function createIndexSql(s: EventStoreSchema, index: EventsIndex): string {
  return createEventsIndexSql(s.events, index);
}

/**
 * Drops the events table's secondary indexes and unique constraints (all but the primary key), for a bulk load into
 * an empty store (services/runtime/src/scale/bulkEventLoad.ts), which builds them again with
 * `createEventsSecondaryIndexes` once the rows are in: one sort each instead of a B-tree insert per row.
 */
export async function dropEventsSecondaryIndexes(db: pg.ClientBase | pg.Pool, schemaName: string = DEFAULT_SCHEMA): Promise<void> {
  const s = eventStoreSchema(schemaName);
  for (const key of EVENTS_UNIQUE_KEYS) await db.query(`ALTER TABLE ${s.events} DROP CONSTRAINT IF EXISTS ${key.name}`);
  for (const index of EVENTS_INDEXES) await db.query(`DROP INDEX IF EXISTS ${s.schema}.${index.name}`);
}

/** The events table's secondary indexes and unique constraints, each built when missing (the DDL's definitions). */
export async function createEventsSecondaryIndexes(db: pg.ClientBase | pg.Pool, schemaName: string = DEFAULT_SCHEMA): Promise<void> {
  await db.query(eventsSecondaryIndexesSql(eventStoreSchema(schemaName)));
}

function eventsSecondaryIndexesSql(s: EventStoreSchema): string {
  const keys = EVENTS_UNIQUE_KEYS.map(
    (key) => `
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = '${s.events}'::regclass AND conname = '${key.name}') THEN
    ALTER TABLE ${s.events} ADD CONSTRAINT ${key.name} UNIQUE (${key.columns});
  END IF;`,
  );
  return `DO $keys$\nBEGIN${keys.join('')}\nEND\n$keys$;\n${EVENTS_INDEXES.map((index) => createIndexSql(s, index)).join('\n')}`;
}

/**
 * The statement trigger that refuses every UPDATE and DELETE on the events table, whoever runs them (the table's
 * owner too, unless they first disable it, which a least-privilege application role cannot: docs/operations.md).
 * TRUNCATE is left to the role's privileges (it has none) and to the signed checkpoints, which a truncated log no
 * longer reaches; the operator's `tombstoneStream` changes only the `streams` table.
 */
export const EVENTS_APPEND_ONLY_TRIGGER = 'events_append_only';

/** What the schema's comment says once this version of the DDL and the append function is installed (letters and hex only). */
function versionMarker(ddl: string): string {
  return `bank event store ${createHash('sha256').update(ddl).digest('hex').slice(0, 16)}`;
}

async function installedMarker(db: pg.Pool | pg.PoolClient, schemaName: string): Promise<string | null> {
  const { rows } = await db.query<{ marker: string | null }>(`SELECT obj_description(to_regnamespace($1), 'pg_namespace') AS marker`, [schemaName]);
  return rows[0]?.marker ?? null;
}

/**
 * Creates the event store's schema, tables and append function when missing or out of date; safe to run at every
 * start and from several processes at once.
 *
 * When the schema's comment names this version, nothing is locked or changed: a process that starts while others
 * append stays out of their way. Otherwise the DDL runs in one transaction under an advisory lock, and first
 * locks the events table against writes: appenders lock the events table before they draw from its sequence, so
 * taking the table before `ALTER SEQUENCE` and `CREATE INDEX` keeps the DDL from deadlocking with them.
 */
export async function ensureEventStoreSchema(pool: pg.Pool, schemaName: string = DEFAULT_SCHEMA): Promise<void> {
  const s = eventStoreSchema(schemaName);
  const ddl = `${tablesSql(s)}\n${appendBatchFunctionSql(s)}`;
  const marker = versionMarker(ddl);
  if ((await installedMarker(pool, s.name)) === marker) return;
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', ['bank.eventstore.schema', s.name]);
    if ((await installedMarker(client, s.name)) !== marker) {
      const { rows } = await client.query<{ events: string | null }>('SELECT to_regclass($1) AS events', [s.events]);
      if (rows[0]?.events) await client.query(`LOCK TABLE ${s.events} IN SHARE ROW EXCLUSIVE MODE`);
      await client.query(ddl);
      // A bulk load cut short (its marker says so) left the events table without these: built again here.
      await client.query(eventsSecondaryIndexesSql(s));
      await client.query(`COMMENT ON SCHEMA ${s.schema} IS '${marker}'`);
    }
  });
}

/** The trigger that makes the events table append-only (see EVENTS_APPEND_ONLY_TRIGGER). */
function appendOnlySql(s: EventStoreSchema): string {
  return `
CREATE OR REPLACE FUNCTION ${s.schema}.refuse_event_change() RETURNS trigger LANGUAGE plpgsql AS $refuse$
BEGIN
  RAISE EXCEPTION 'the event log is append-only: % on %.% is refused', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'events are never changed or deleted; a correction is a new event (docs/audit.md)';
END
$refuse$;

DO $trigger$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = '${s.events}'::regclass AND tgname = '${EVENTS_APPEND_ONLY_TRIGGER}') THEN
    CREATE TRIGGER ${EVENTS_APPEND_ONLY_TRIGGER} BEFORE UPDATE OR DELETE ON ${s.events}
      FOR EACH STATEMENT EXECUTE FUNCTION ${s.schema}.refuse_event_change();
  END IF;
END
$trigger$;

-- An upgrade turns the guard back on if someone turned it off.
ALTER TABLE ${s.events} ENABLE TRIGGER ${EVENTS_APPEND_ONLY_TRIGGER};
`;
}


/**
 * Marks the schema as being bulk-loaded (its indexes dropped): the comment no longer names an installed version, so
 * any process that starts the store before the load finishes — or after it was cut short — runs the DDL again and
 * builds the missing indexes (ensureEventStoreSchema). The load itself ends with ensureEventStoreSchema.
 */
export async function markEventStoreBulkLoad(db: pg.ClientBase | pg.Pool, schemaName: string = DEFAULT_SCHEMA): Promise<void> {
  const s = eventStoreSchema(schemaName);
  await db.query(`COMMENT ON SCHEMA ${s.schema} IS 'bank event store bulk load in progress'`);
}

import type { EventStore, Position, RecordedEvent } from '@bank/eventstore';
import pg from 'pg';
import { CHECKPOINT_CHANNEL, DEFAULT_PROJECTOR_NAME, readCheckpoint } from '../checkpoint/checkpointStore';
import { LOCK_SQL, lockArgs } from '../locks/advisoryLocks';
import type { ProjectorMetrics } from '../metrics/projectorMetrics';
import { defaultProjections } from '../projections/defaultProjections';
import type { Projection } from '../projections/projection';
import { applyBatch, type BatchTarget } from '../runner/applyBatch';
import { createEventDispatcher } from '../runner/eventDispatcher';
import { silentProjectorLogger, type ProjectorLogger } from '../runner/projectorLogger';
import { migrateReadModels } from '../schema/migrateReadModels';
import { BUILD_SCHEMA_PREFIX, OLD_SCHEMA_PREFIX, READ_MODEL_SCHEMA, schemaIdent } from '../schema/readModelSchema';
import { READ_MODEL_TABLE_NAMES, readModelTables } from '../schema/readModelTables';

export interface RebuildOptions {
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly logger?: ProjectorLogger;
  /** The projector whose read models are rebuilt (its checkpoint name and apply lock). Default 'main'. */
  readonly name?: string;
  readonly projections?: readonly Projection[];
  /** Events per read and per batch transaction. Default 2000. */
  readonly batchSize?: number;
  readonly metrics?: ProjectorMetrics;
  /** Called after each batch of the catch-up. */
  readonly onProgress?: (progress: { readonly events: number; readonly position: Position }) => void;
  /**
   * Test hook: runs after the catch-up, just before the swap (writers may append meanwhile; the tail is applied
   * under the apply lock).
   */
  readonly beforeSwap?: () => Promise<void>;
}

export interface RebuildResult {
  /** The schema that was built (now renamed to `rm`). */
  readonly builtSchema: string;
  /** Events read and applied into the new schema. */
  readonly events: number;
  /** Of which in the final catch-up under the apply lock. */
  readonly tailEvents: number;
  /** The new read models' checkpoint (formatted), null for an empty log. */
  readonly position: string | null;
  readonly durationMs: number;
  readonly eventsPerSecond: number;
  /** How long the live projector was paused (the final catch-up and the swap), in ms. */
  readonly swapMs: number;
}

export class RebuildAlreadyRunningError extends Error {
  override readonly name = 'RebuildAlreadyRunningError';
}

/**
 * Rebuilds the read models from position 0 without downtime:
 * 1. one rebuild at a time (a session advisory lock); left-over schemas of a crashed rebuild are dropped;
 * 2. the migrations create a fresh schema `rm_build_<n>` beside the live `rm`;
 * 3. the whole log is applied into it in batches (the live projector and the API carry on with `rm`);
 * 4. in ONE transaction holding the projector's apply lock (the live projector pauses between batches): apply the
 *    events appended meanwhile, rename `rm` → `rm_old_<n>` and `rm_build_<n>` → `rm`, notify the new checkpoint;
 * 5. drop `rm_old_<n>` (after the queries still reading it finish).
 * The checkpoint lives in the schema, so it swaps along; the live projector notices that its checkpoint moved and
 * resumes from the new one.
 */
export async function rebuildProjections(options: RebuildOptions): Promise<RebuildResult> {
  const { pool, store } = options;
  const name = options.name ?? DEFAULT_PROJECTOR_NAME;
  const logger = options.logger ?? silentProjectorLogger;
  const batchSize = options.batchSize ?? 2000;
  const started = performance.now();
  const lockClient = new pg.Client({ ...pool.options, application_name: 'bank-projector-rebuild' });
  lockClient.on('error', () => undefined);
  await lockClient.connect();
  try {
    const { rows } = await lockClient.query<{ locked: boolean }>(LOCK_SQL.tryLock, lockArgs('rebuild', name));
    if (!rows[0]?.locked) throw new RebuildAlreadyRunningError('Another rebuild of the read models is running');
    await dropLeftovers(pool, logger);

    const stamp = `${Date.now()}`;
    const builtSchema = `${BUILD_SCHEMA_PREFIX}${stamp}`;
    await migrateReadModels(pool, builtSchema);
    const tail: BatchTarget = {
      tables: readModelTables(builtSchema),
      name,
      dispatcher: createEventDispatcher(options.projections ?? defaultProjections, logger),
      applyLock: false,
    };
    const target: BatchTarget = { ...tail, asyncCommit: true };
    const indexes = await dropSecondaryIndexes(pool, builtSchema);
    logger.info({ schema: builtSchema }, 'rebuild: applying the log into a fresh schema');

    const client = await pool.connect();
    try {
      let expected = await readCheckpoint(client, target.tables, name);
      let after: Position | undefined;
      let events = 0;
      const labels = { projector: name };

      // Catch-up, reading the next batch while the current one is applied.
      let next = store.readAll({ after, limit: batchSize });
      for (;;) {
        const batch: RecordedEvent[] = await next;
        if (batch.length === 0) break;
        after = batch.at(-1)!.position;
        next = store.readAll({ after, limit: batchSize });
        next.catch(() => undefined);
        expected = (await applyBatch(client, target, batch, expected)).position;
        events += batch.length;
        options.metrics?.rebuildEvents.inc(labels, batch.length);
        options.onProgress?.({ events, position: after });
      }
      await createIndexes(client, builtSchema, indexes);
      await options.beforeSwap?.();

      // The tail and the swap, with the live projector paused.
      const swapStarted = performance.now();
      let tailEvents = 0;
      const live = schemaIdent(READ_MODEL_SCHEMA);
      const old = `${OLD_SCHEMA_PREFIX}${stamp}`;
      let hadLive = false;
      await client.query('BEGIN');
      try {
        await client.query(LOCK_SQL.xactLock, lockArgs('apply', name));
        await client.query(LOCK_SQL.xactLock, lockArgs('migrate', READ_MODEL_SCHEMA));
        for (;;) {
          const batch = await store.readAll({ after, limit: batchSize });
          if (batch.length === 0) break;
          after = batch.at(-1)!.position;
          expected = (await applyBatch(client, tail, batch, expected, { inTransaction: true })).position;
          tailEvents += batch.length;
        }
        const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [READ_MODEL_SCHEMA]);
        hadLive = (exists.rowCount ?? 0) > 0;
        if (hadLive) await client.query(`ALTER SCHEMA ${live} RENAME TO ${schemaIdent(old)}`);
        await client.query(`ALTER SCHEMA ${schemaIdent(builtSchema)} RENAME TO ${live}`);
        if (expected) await client.query('SELECT pg_notify($1, $2)', [CHECKPOINT_CHANNEL, `${name} ${expected}`]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        await client.query(`DROP SCHEMA IF EXISTS ${schemaIdent(builtSchema)} CASCADE`).catch(() => undefined);
        throw error;
      }
      const swapMs = performance.now() - swapStarted;
      events += tailEvents;
      options.metrics?.rebuildEvents.inc(labels, tailEvents);
      if (hadLive) await dropSchema(client, old, logger);

      const durationMs = performance.now() - started;
      options.metrics?.rebuilds.inc(labels);
      const result: RebuildResult = {
        builtSchema,
        events,
        tailEvents,
        position: expected,
        durationMs,
        eventsPerSecond: durationMs > 0 ? Math.round((events / durationMs) * 1000) : events,
        swapMs,
      };
      logger.info({ ...result }, 'rebuild: swapped the fresh read models in');
      return result;
    } finally {
      client.release();
    }
  } finally {
    await lockClient.query(LOCK_SQL.unlock, lockArgs('rebuild', name)).catch(() => undefined);
    await lockClient.end().catch(() => undefined);
  }
}

/**
 * Drops the build schema's secondary indexes (all but those of constraints: the primary keys the projections'
 * upserts need) and returns their definitions: building an index once over the full table is much faster than
 * maintaining it row by row during the catch-up.
 */
async function dropSecondaryIndexes(pool: pg.Pool, schema: string): Promise<string[]> {
  const { rows } = await pool.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = $1
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.connamespace = $1::regnamespace AND c.conname = i.indexname)`,
    [schema],
  );
  for (const row of rows) await pool.query(`DROP INDEX ${schemaIdent(schema)}.${pg.escapeIdentifier(row.indexname)}`);
  return rows.map((row) => row.indexdef);
}

async function createIndexes(client: pg.ClientBase, schema: string, definitions: readonly string[]): Promise<void> {
  for (const definition of definitions) await client.query(definition);
  await client.query(`ANALYZE ${readModelTables(schema).checkpoint}`);
  for (const table of READ_MODEL_TABLE_NAMES) await client.query(`ANALYZE ${schemaIdent(schema)}.${table}`);
}

/** Drops a schema swapped out, waiting (bounded) for queries still reading it; a leftover is dropped next time. */
async function dropSchema(client: pg.ClientBase, schema: string, logger: ProjectorLogger): Promise<void> {
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL lock_timeout = '5s'`);
      await client.query(`DROP SCHEMA IF EXISTS ${schemaIdent(schema)} CASCADE`);
      await client.query('COMMIT');
      return;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      logger.warn({ err: error, schema, attempt }, 'rebuild: could not drop the old read models yet');
    }
  }
}

/** Drops build and old schemas a crashed rebuild left behind (call holding the rebuild lock). */
async function dropLeftovers(pool: pg.Pool, logger: ProjectorLogger): Promise<void> {
  const { rows } = await pool.query<{ nspname: string }>(
    `SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1) OR starts_with(nspname, $2)`,
    [BUILD_SCHEMA_PREFIX, OLD_SCHEMA_PREFIX],
  );
  for (const { nspname } of rows) {
    logger.warn({ schema: nspname }, 'rebuild: dropping a schema left by an earlier rebuild');
    await pool.query(`DROP SCHEMA IF EXISTS ${schemaIdent(nspname)} CASCADE`);
  }
}

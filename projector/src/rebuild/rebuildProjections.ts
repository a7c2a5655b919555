import type { EventStore, Position } from '@bank/eventstore';
import pg from 'pg';
import { advanceCheckpoint, CHECKPOINT_CHANNEL, DEFAULT_PROJECTOR_NAME, readCheckpoint } from '../checkpoint/checkpointStore';
import { LOCK_SQL, lockArgs, migrateLockArgs } from '../locks/advisoryLocks';
import type { ProjectorMetrics } from '../metrics/projectorMetrics';
import { defaultProjections } from '../projections/defaultProjections';
import { tablesWritten, type Projection } from '../projections/projection';
import { applyBatch, createBatchTarget, type BatchTarget } from '../runner/applyBatch';
import { EventDispatcher } from '../runner/eventDispatcher';
import { checkOut } from '../runner/pooledClient';
import { silentProjectorLogger, type ProjectorLogger } from '../runner/projectorLogger';
import { migrateReadModels } from '../schema/migrateReadModels';
import { BUILD_SCHEMA_PREFIX, OLD_SCHEMA_PREFIX, READ_MODEL_SCHEMA, schemaIdent } from '../schema/readModelSchema';
import { readModelTables } from '../schema/readModelTables';
import { bulkLoad, roundedTime, type LoadTime } from './bulkLoad';
import { finishBulkLoad, keysOf, KeysAfterLoadRefused, prepareBulkLoad } from './bulkSchema';

/** Where a rebuild is, for progress reports (`onProgress`). */
export interface RebuildProgress {
  /**
   * `load`: the bulk load of the log (once per batch); `indexes`: making the tables logged and building their
   * indexes and constraints; `catch-up`: events appended meanwhile; `swap`: the tail and the swap, done.
   */
  readonly phase: 'load' | 'indexes' | 'catch-up' | 'swap';
  /** Events applied into the new read models so far. */
  readonly events: number;
  /** Position of the last of them. */
  readonly position: Position | undefined;
  readonly elapsedMs: number;
  /** Events per second since the start of the rebuild. */
  readonly eventsPerSecond: number;
}

export interface RebuildOptions {
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly logger?: ProjectorLogger;
  /** The projector whose read models are rebuilt (its checkpoint name and apply lock). Default 'main'. */
  readonly name?: string;
  readonly projections?: readonly Projection[];
  /** Events per read and per batch. Default 10,000. */
  readonly batchSize?: number;
  /**
   * Connections loading at once (independent projections are spread over them). Default 3; never more than the
   * pool's size less one (kept for reading the log). The pool needs at least 2 connections.
   */
  readonly parallel?: number;
  /**
   * Build the tables UNLOGGED (no WAL while loading), made logged before the swap. Default false: making a table
   * logged rewrites it in one transaction that holds back the event store's visibility fence for every reader of
   * the log (see finishBulkLoad) — fine for a load with nothing live, not beside a running bank.
   */
  readonly unlogged?: boolean;
  /** Batches folded and not yet written, at most, over the load. Default WRITE_AHEAD (bulkLoad). */
  readonly ahead?: number;
  /** Rows a held table (heldDuringRebuild) keeps in memory over the load. Default HELD_ROW_LIMIT (bulkLoad). */
  readonly heldRowLimit?: number;
  /**
   * Build the primary keys of the tables declared keyAfterLoad (rows inserted once, at random keys: the transactions,
   * the staff audit log) after the load instead of inserting into them row by row, the updates of earlier batches'
   * rows applied once they are built. Default true. A load that finds what only a key would have caught (a key
   * inserted twice, an update before its row) is done again with the keys, which handle or name it (a warning says
   * so).
   */
  readonly keysAfterLoad?: boolean;
  readonly metrics?: ProjectorMetrics;
  /** Called after each batch of the load and at each phase: for progress bars and logs. */
  readonly onProgress?: (progress: RebuildProgress) => void;
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
  /** Time spent per phase, in ms: the bulk load, indexes and constraints, the catch-up before the swap. */
  readonly phaseMs: { readonly load: number; readonly indexes: number; readonly catchUp: number };
  /** Where the bulk load's time went (bulkLoad's LoadTime, in whole ms). */
  readonly loadTime: LoadTime;
}

export class RebuildAlreadyRunningError extends Error {
  override readonly name = 'RebuildAlreadyRunningError';
}

/** Below this many events left, the catch-up stops and the rest is applied under the apply lock. */
const TAIL_THRESHOLD = 2_000;

/**
 * Rebuilds the read models from position 0 without downtime (docs/projections.md, "Rebuild"):
 * 1. one rebuild at a time (a session advisory lock); left-over schemas of a crashed rebuild are dropped;
 * 2. the migrations create a fresh schema `rm_build_<n>` beside the live `rm`, stripped for a bulk load
 *    (no secondary indexes; UNLOGGED tables on request: prepareBulkLoad);
 * 3. the whole log is loaded into it (bulkLoad: pipelined, COPY, independent projections on parallel connections);
 *    the live projector and the API carry on with `rm` meanwhile;
 * 4. the indexes are built once, concurrently (and unlogged tables made logged: finishBulkLoad);
 * 5. the events appended meanwhile are applied in ordinary batches, until few are left;
 * 6. in ONE transaction holding the projector's apply lock (the live projector pauses between batches): apply the
 *    last events, rename `rm` → `rm_old_<n>` and `rm_build_<n>` → `rm`, notify the new checkpoint;
 * 7. drop `rm_old_<n>` (after the queries still reading it finish).
 * The checkpoint lives in the schema, so it swaps along; the live projector notices that its checkpoint moved and
 * resumes from the new one.
 */
export async function rebuildProjections(options: RebuildOptions): Promise<RebuildResult> {
  if (options.keysAfterLoad === false) return rebuildOnce(options, false);
  try {
    return await rebuildOnce(options, true);
  } catch (error) {
    if (!(error instanceof KeysAfterLoadRefused)) throw error;
    (options.logger ?? silentProjectorLogger).warn({ reason: error.message }, 'rebuild: the load without primary keys found a row a key would refuse; loading again with the keys');
    return rebuildOnce(options, false);
  }
}

async function rebuildOnce(options: RebuildOptions, keysAfterLoad: boolean): Promise<RebuildResult> {
  const { pool, store } = options;
  const name = options.name ?? DEFAULT_PROJECTOR_NAME;
  const logger = options.logger ?? silentProjectorLogger;
  const projections = options.projections ?? defaultProjections;
  const batchSize = options.batchSize ?? 10_000;
  const parallel = Math.max(1, options.parallel ?? 3);
  const labels = { projector: name };
  const started = performance.now();
  let events = 0;
  let position: Position | undefined;
  const progress = (phase: RebuildProgress['phase']) => {
    const elapsedMs = performance.now() - started;
    options.onProgress?.({ phase, events, position, elapsedMs, eventsPerSecond: elapsedMs > 0 ? Math.round((events / elapsedMs) * 1000) : 0 });
  };

  const lockClient = new pg.Client({ ...pool.options, application_name: 'bank-projector-rebuild' });
  lockClient.on('error', () => undefined);
  await lockClient.connect();
  try {
    const { rows } = await lockClient.query<{ locked: boolean }>(LOCK_SQL.tryLock, lockArgs('rebuild', name));
    if (!rows[0]?.locked) throw new RebuildAlreadyRunningError('Another rebuild of the read models is running');
    await dropLeftovers(pool, logger);

    const stamp = `${Date.now()}`;
    const builtSchema = `${BUILD_SCHEMA_PREFIX}${stamp}`;
    const tables = readModelTables(builtSchema);
    await migrateReadModels(pool, builtSchema);
    try {
      const written = [...new Set(projections.flatMap(tablesWritten))];
      const keyless = keysAfterLoad ? [...new Set(projections.flatMap((projection) => Object.entries(projection.tables).filter(([, table]) => table.keyAfterLoad).map(([table]) => table)))] : [];
      // Tables the load only appends to stay logged in an UNLOGGED build (prepareBulkLoad): the journal, and those
      // whose key is built after the load (their updates of earlier batches' rows wait for it).
      const appendOnly = [...new Set([...projections.flatMap((projection) => projection.appendOnlyTables ?? []), ...keyless])].sort();
      const bulk = await prepareBulkLoad(pool, builtSchema, written, options.unlogged ?? false, keyless, appendOnly);
      logger.info(
        { schema: builtSchema, unlogged: bulk.unlogged, parallel, keysAfterLoad: bulk.keys.map((key) => key.name), ...(bulk.unlogged ? { loggedDuringLoad: appendOnly.filter((table) => written.includes(table)) } : {}) },
        'rebuild: loading the log into a fresh schema',
      );

      // 3. The bulk load.
      const loaded = await bulkLoad({
        pool,
        store,
        tables,
        projections,
        logger,
        batchSize,
        lanes: parallel,
        keysAfterLoad: keysOf(bulk),
        ...(options.heldRowLimit !== undefined ? { heldRowLimit: options.heldRowLimit } : {}),
        ...(options.ahead !== undefined ? { ahead: options.ahead } : {}),
        onBatch: (batch) => {
          options.metrics?.rebuildEvents.inc(labels, batch.events - events);
          events = batch.events;
          position = batch.position;
          progress('load');
        },
      });
      const loadMs = performance.now() - started;

      // 4. The indexes (and logged tables, when built unlogged).
      progress('indexes');
      await finishBulkLoad(pool, bulk, { logger, afterLoad: loaded.afterLoad });
      const indexesMs = performance.now() - started - loadMs;

      const dispatcher = new EventDispatcher(projections, logger);
      const target: BatchTarget = createBatchTarget({ tables, name, dispatcher, applyLock: false, asyncCommit: true });
      const tail: BatchTarget = createBatchTarget({ tables, name, dispatcher, applyLock: false });
      const pooled = await checkOut(pool);
      const { client } = pooled;
      try {
        let expected = await readCheckpoint(client, tables, name);
        if (loaded.last) {
          await advanceCheckpoint(client, tables, { name, expected, next: loaded.last.position, applied: loaded.events, lastEventCreated: loaded.last.created });
          expected = (await readCheckpoint(client, tables, name))!;
        }

        // 5. The events appended meanwhile, in ordinary batches (no lock: the live projector carries on).
        progress('catch-up');
        for (;;) {
          const batch = await store.readAll({ after: position, limit: batchSize });
          if (batch.length === 0) break;
          expected = (await applyBatch(client, target, batch, expected)).position;
          position = batch.at(-1)!.position;
          events += batch.length;
          options.metrics?.rebuildEvents.inc(labels, batch.length);
          if (batch.length < TAIL_THRESHOLD) break;
        }
        const catchUpMs = performance.now() - started - loadMs - indexesMs;
        await options.beforeSwap?.();

        // 6. The tail and the swap, with the live projector paused.
        const swapStarted = performance.now();
        let tailEvents = 0;
        const live = schemaIdent(READ_MODEL_SCHEMA);
        const old = `${OLD_SCHEMA_PREFIX}${stamp}`;
        let hadLive = false;
        await client.query('BEGIN');
        try {
          await client.query(LOCK_SQL.xactLock, lockArgs('apply', name));
          await client.query(LOCK_SQL.xactLock, migrateLockArgs());
          for (;;) {
            const batch = await store.readAll({ after: position, limit: batchSize });
            if (batch.length === 0) break;
            position = batch.at(-1)!.position;
            expected = (await applyBatch(client, tail, batch, expected, { inTransaction: true })).position;
            tailEvents += batch.length;
            // A page short of a batch is the head: what is appended after it, the live projector applies from the
            // swapped-in checkpoint. Reading on until a read came back empty would keep the live projector paused
            // for as long as a busy bank appended.
            if (batch.length < batchSize) break;
          }
          const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [READ_MODEL_SCHEMA]);
          hadLive = (exists.rowCount ?? 0) > 0;
          if (hadLive) await client.query(`ALTER SCHEMA ${live} RENAME TO ${schemaIdent(old)}`);
          await client.query(`ALTER SCHEMA ${schemaIdent(builtSchema)} RENAME TO ${live}`);
          if (expected) await client.query('SELECT pg_notify($1, $2)', [CHECKPOINT_CHANNEL, `${name} ${expected}`]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
        const swapMs = performance.now() - swapStarted;
        events += tailEvents;
        options.metrics?.rebuildEvents.inc(labels, tailEvents);
        progress('swap');
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
          phaseMs: { load: Math.round(loadMs), indexes: Math.round(indexesMs), catchUp: Math.round(catchUpMs) },
          loadTime: roundedTime(loaded.time),
        };
        logger.info({ ...result }, 'rebuild: swapped the fresh read models in');
        return result;
      } finally {
        pooled.release();
      }
    } catch (error) {
      await pool.query(`DROP SCHEMA IF EXISTS ${schemaIdent(builtSchema)} CASCADE`).catch(() => undefined);
      throw error;
    }
  } finally {
    await lockClient.query(LOCK_SQL.unlock, lockArgs('rebuild', name)).catch(() => undefined);
    await lockClient.end().catch(() => undefined);
  }
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

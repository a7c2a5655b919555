import type { EventStore, Position, RecordedEvent } from '@bank/eventstore';
import type pg from 'pg';
import { BatchChanges, createWriteLayout, type WriteLayout } from '../changes/batchChanges';
import { loadTableCatalog } from '../changes/tableCatalog';
import { copyChanges, isDuplicateKeyError, writeChanges } from '../changes/writeChanges';
import type { Projection } from '../projections/projection';
import { writeEventByEvent } from '../runner/applyBatch';
import { EventApplyError, EventDispatcher, isTransientDatabaseError } from '../runner/eventDispatcher';
import { checkOut, type PooledClient } from '../runner/pooledClient';
import { silentProjectorLogger, type ProjectorLogger } from '../runner/projectorLogger';
import type { ReadModelTables } from '../schema/readModelTables';
import { independentGroups } from './projectionGroups';

export interface BulkLoadOptions {
  readonly pool: pg.Pool;
  readonly store: EventStore;
  /** The build schema's tables (prepared by prepareBulkLoad). */
  readonly tables: ReadModelTables;
  readonly projections: readonly Projection[];
  readonly logger: ProjectorLogger;
  /** Events per read and per batch. */
  readonly batchSize: number;
  /** Connections writing at once; independent projections are spread over them. */
  readonly lanes: number;
  /** Called when a batch is written, with the events written so far and the last one's position. */
  readonly onBatch?: (progress: { readonly events: number; readonly position: Position }) => void;
}

export interface BulkLoadResult {
  readonly events: number;
  /** The last event loaded (undefined for an empty log). */
  readonly last: RecordedEvent | undefined;
}

/** Events folded between two turns of the event loop. */
const YIELD_EVERY = 500;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Group {
  readonly dispatcher: EventDispatcher;
  readonly layout: WriteLayout;
}

/**
 * Loads the whole log into a build schema as a pipeline whose stages overlap: the next page of the log is read
 * while the current one is decoded (validated once, for every projection) and folded per group of independent
 * projections, while each lane (a connection) writes the previous batch of its groups: new rows by COPY, updates
 * of earlier rows by one statement per table, in a transaction that does not wait for the WAL flush. Memory is
 * bounded by three batches (one read ahead, one folding, one being written) whatever the log's length.
 */
export async function bulkLoad(options: BulkLoadOptions): Promise<BulkLoadResult> {
  const { pool, store, batchSize } = options;
  const decoder = new EventDispatcher(options.projections, options.logger);
  const catalog = await loadTableCatalog(pool, options.tables.schemaName);
  const groups: Group[] = independentGroups(options.projections).map((members) => ({
    dispatcher: new EventDispatcher(members, silentProjectorLogger),
    layout: createWriteLayout(members, catalog, options.tables),
  }));
  // Each lane holds a connection for the whole load; one more of the pool stays free for reading the log.
  const laneCount = Math.max(1, Math.min(options.lanes, groups.length, (pool.options.max ?? 10) - 1));
  const lanes = Array.from({ length: laneCount }, (_, lane) => groups.filter((_, index) => index % laneCount === lane));
  const lanesClients: PooledClient[] = [];
  try {
    for (let i = 0; i < laneCount; i += 1) lanesClients.push(await checkOut(pool));
    const clients = lanesClients.map((pooled) => pooled.client);
    // A crash loses at most the last statements of a build that is started again anyway: no waiting for the WAL.
    for (const client of clients) await client.query('SET synchronous_commit TO OFF');
    let writing: Promise<void> = Promise.resolve();
    let events = 0;
    let last: RecordedEvent | undefined;
    let next = store.readAll({ limit: batchSize });
    for (;;) {
      const page = await next;
      if (page.length === 0) break;
      next = store.readAll({ after: page.at(-1)!.position, limit: batchSize });
      next.catch(() => undefined);

      const changes = groups.map((group) => new BatchChanges(group.layout));
      for (let e = 0; e < page.length; e += 1) {
        // The lanes' COPY data and the next page's rows move only when the event loop turns: without a turn now and
        // then, the server would wait for them as long as the fold of the whole page takes.
        if (e % YIELD_EVERY === YIELD_EVERY - 1) await turn();
        const event = page[e]!;
        const decoded = decoder.decode(event);
        for (let g = 0; g < groups.length; g += 1) {
          const pending = groups[g]!.dispatcher.apply(decoded, changes[g]!);
          if (pending) await pending;
        }
      }

      await writing;
      const batchEnd = page.at(-1)!;
      const written = events + page.length;
      writing = allLanes(
        lanes.map((laneGroups, lane) =>
          writeLane(
            clients[lane]!,
            laneGroups.map((group) => ({ group, changes: changes[groups.indexOf(group)]! })),
            page,
            options.logger,
          ),
        ),
      ).then(() => options.onBatch?.({ events: written, position: batchEnd.position }));
      writing.catch(() => undefined);
      events = written;
      last = batchEnd;
    }
    await writing;
    return { events, last };
  } finally {
    for (const pooled of lanesClients) {
      await pooled.client.query('RESET synchronous_commit').catch(() => undefined);
      pooled.release();
    }
  }
}

/**
 * Waits for every lane of a batch, then fails with the first lane's error if any: a lane still writing (possibly in
 * a transaction of its own, see BatchWriter.copy) when another fails must be done before its connection goes back
 * to the pool.
 */
async function allLanes(lanes: readonly Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(lanes);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * One lane's share of a batch, each statement its own short transaction (a long one would hold back the event
 * store's visibility fence for every reader of the log): COPY first; when a COPY meets an existing key (the log
 * inserts a row twice), the batch again with upserts; when the server refuses something else, event by event to
 * name it. Writing a batch again over what it already wrote changes nothing: every change is idempotent.
 */
async function writeLane(
  client: pg.ClientBase,
  work: readonly { group: Group; changes: BatchChanges }[],
  events: readonly RecordedEvent[],
  logger: ProjectorLogger,
): Promise<void> {
  const pending = work.filter((item) => !item.changes.empty);
  if (pending.length === 0) return;
  try {
    for (const item of pending) await copyChanges(client, item.changes);
    return;
  } catch (error) {
    if (error instanceof EventApplyError || isTransientDatabaseError(error)) throw error;
    if (isDuplicateKeyError(error)) {
      logger.info({ from: events[0]?.id, to: events.at(-1)?.id, events: events.length }, 'rebuild: a batch inserts rows that exist already; writing it with upserts');
      try {
        for (const item of pending) await writeChanges(client, item.changes);
        return;
      } catch (retryError) {
        if (retryError instanceof EventApplyError || isTransientDatabaseError(retryError)) throw retryError;
      }
    }
  }
  for (const { group } of pending) await writeEventByEvent(client, group.dispatcher, group.layout, events);
}

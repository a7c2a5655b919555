import type { EventStore, Position, RecordedEvent } from '@bank/eventstore';
import type pg from 'pg';
import { BatchChanges, createWriteLayout, type WriteLayout } from '../changes/batchChanges';
import type { Statement } from '../changes/changeStatements';
import { loadTableCatalog } from '../changes/tableCatalog';
import { HeldTable } from '../changes/heldTable';
import type { FoldedTable } from '../changes/tableChanges';
import { copyChanges, isDuplicateKeyError, writeChanges, writeHeldRows } from '../changes/writeChanges';
import type { Projection } from '../projections/projection';
import { writeEventByEvent } from '../runner/applyBatch';
import { EventApplyError, EventDispatcher, isTransientDatabaseError } from '../runner/eventDispatcher';
import { checkOut, type PooledClient } from '../runner/pooledClient';
import { silentProjectorLogger, type ProjectorLogger } from '../runner/projectorLogger';
import type { ReadModelTables } from '../schema/readModelTables';
import { independentGroups } from './projectionGroups';
import { KeysAfterLoadRefused } from './bulkSchema';
import { WriteQueue } from './writeQueue';

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
  /**
   * Batches folded and not yet all written, at most (default WRITE_AHEAD): how far the fold and the quicker groups
   * may run ahead of a group held up by a long statement (WriteQueue). Each holds its page and its changes.
   */
  readonly ahead?: number;
  /**
   * Rows a held table (heldDuringRebuild) may keep in memory; past it, the table's rows are written and it is
   * updated batch by batch like the others. Default HELD_ROW_LIMIT.
   */
  readonly heldRowLimit?: number;
  /** The tables whose primary key prepareBulkLoad dropped until the load ends: table → key column (keysOf). */
  readonly keysAfterLoad?: ReadonlyMap<string, string>;
  /** Called when a batch is written, with the events written so far and the last one's position. */
  readonly onBatch?: (progress: { readonly events: number; readonly position: Position }) => void;
}

export interface BulkLoadResult {
  readonly events: number;
  /** The last event loaded (undefined for an empty log). */
  readonly last: RecordedEvent | undefined;
  /** Where the load's time went (also logged when the load ends). */
  readonly time: LoadTime;
  /**
   * Per table whose key is built after the load: the statements of the updates of rows inserted by earlier batches,
   * in log order, to apply once the key is built (finishBulkLoad).
   */
  readonly afterLoad: ReadonlyMap<string, readonly Statement[]>;
}

/**
 * Where a bulk load's wall time went, in ms, on its one thread: waiting for the log's next page, folding (with the
 * lanes' COPY data encoded in between: the same thread), waiting for the writes when the batches folded and not
 * written reached `ahead` (the writes are the bound when this is large, the fold when it is small), writing the held
 * tables; and each group's own writing time summed over the load (the lanes write while the thread folds).
 */
export interface LoadTime {
  readMs: number;
  foldMs: number;
  writeWaitMs: number;
  heldMs: number;
  readonly groups: { readonly projections: string; writeMs: number }[];
}

/**
 * Rows of one held table kept in memory at most: about 200 bytes each besides their keys (a balances' row held by
 * column, HeldTable: 192 bytes, against 457 as an object per row), so about 200 MB for a bank of a million customers
 * and 400 MB at the limit, whatever the bank's size.
 */
export const HELD_ROW_LIMIT = 2_000_000;

/** Events folded between two turns of the event loop. */
const YIELD_EVERY = 500;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Group {
  readonly dispatcher: EventDispatcher;
  readonly layout: WriteLayout;
  /** Its held tables still held: name → their changes folded over the load so far. */
  readonly held: Map<string, HeldTable>;
  /** What its batch writers handed over to the next batch (BatchWriter.handOver), by projection. */
  handed: Map<Projection, unknown>;
  /** Its writes' cost: a moving average of the milliseconds its share of a batch took to write (0: not measured). */
  writeMs: number;
  /** Its writes' time summed over the load (LoadTime). */
  readonly spent: { readonly projections: string; writeMs: number };
}

/** Weight of the latest batch in a group's moving average of write time. */
const WRITE_COST_WEIGHT = 0.3;

/** Batches folded and not yet written, at most, by default (BulkLoadOptions.ahead). */
export const WRITE_AHEAD = 4;

/**
 * Loads the log, up to its head as the load finds it, into a build schema as a pipeline whose stages overlap: the
 * next page of the log is read while the current one is decoded (validated once, for every projection) and folded
 * per group of independent projections, while the lanes (connections) write the batches folded before, each group's
 * in log order and the groups free of each other (WriteQueue): new rows by COPY, updates of earlier rows by one
 * statement per table, in a transaction that does not wait for the WAL flush. Memory is bounded by `ahead` + 2
 * batches (one read ahead, one folding, up to `ahead` being written) whatever the log's length.
 */
export async function bulkLoad(options: BulkLoadOptions): Promise<BulkLoadResult> {
  const { pool, store, batchSize } = options;
  const decoder = new EventDispatcher(options.projections, options.logger);
  const catalog = await loadTableCatalog(pool, options.tables.schemaName, options.keysAfterLoad);
  const afterLoad = new Map<string, Statement[]>();
  const keepForAfterLoad = (table: FoldedTable, statement: Statement) => {
    const kept = afterLoad.get(table.info.name);
    if (kept) kept.push(statement);
    else afterLoad.set(table.info.name, [statement]);
  };
  const groups: Group[] = independentGroups(options.projections).map((members) => {
    const layout = createWriteLayout(members, catalog, options.tables);
    const held = new Map<string, HeldTable>();
    for (const [name, table] of layout.writable) if (table.held) held.set(name, new HeldTable(table.info, table.positionColumn));
    const spent = { projections: members.map((member) => member.name).join('+'), writeMs: 0 };
    return { dispatcher: new EventDispatcher(members, silentProjectorLogger), layout, held, handed: new Map(), writeMs: 0, spent };
  });
  const time: LoadTime = { readMs: 0, foldMs: 0, writeWaitMs: 0, heldMs: 0, groups: groups.map((group) => group.spent) };
  let clock = performance.now();
  /** Adds the time since the last call to one of `time`'s counters. */
  const lap = (counter: 'readMs' | 'foldMs' | 'writeWaitMs' | 'heldMs') => {
    const now = performance.now();
    time[counter] += now - clock;
    clock = now;
  };
  const heldRowLimit = options.heldRowLimit ?? HELD_ROW_LIMIT;
  const ahead = Math.max(1, options.ahead ?? WRITE_AHEAD);
  // Each lane holds a connection for the whole load; one more of the pool stays free for reading the log.
  const laneCount = Math.max(1, Math.min(options.lanes, groups.length, (pool.options.max ?? 10) - 1));
  const lanesClients: PooledClient[] = [];
  /** Each batch enqueued: the events loaded once it is written, and its last position (for onBatch). */
  const batchEnds = new Map<number, { readonly events: number; readonly position: Position }>();
  const queue = new WriteQueue<Group>(laneCount, (group) => group.writeMs, (batch) => {
    const end = batchEnds.get(batch);
    batchEnds.delete(batch);
    if (end) options.onBatch?.(end);
  });
  /** The jobs writing one batch's changes, a group each (those with changes). */
  const jobsOf = (changes: readonly BatchChanges[], page: readonly RecordedEvent[]) =>
    groups.flatMap((group, g) => (changes[g]!.empty ? [] : [{ group, run: (lane: number) => writeGroup(lanesClients[lane]!.client, group, changes[g]!, page, options.logger, keepForAfterLoad) }]));
  try {
    for (let i = 0; i < laneCount; i += 1) lanesClients.push(await checkOut(pool));
    const clients = lanesClients.map((pooled) => pooled.client);
    // A crash loses at most the last statements of a build that is started again anyway: no waiting for the WAL.
    for (const client of clients) await client.query('SET synchronous_commit TO OFF');
    let events = 0;
    let last: RecordedEvent | undefined;
    let next: Promise<RecordedEvent[]> | undefined = store.readAll({ limit: batchSize });
    while (next) {
      lap('foldMs');
      const page: RecordedEvent[] = await next;
      lap('readMs');
      if (page.length === 0) break;
      // A page short of a batch is the log's head: the load ends with it, and the rebuild's catch-up applies what
      // was appended since. Read on until a read came back empty, the load would chase a busy bank's appends for as
      // long as they went on (each batch's page holding what was appended while the one before was written).
      next = page.length < batchSize ? undefined : store.readAll({ after: page.at(-1)!.position, limit: batchSize });
      next?.catch(() => undefined);

      const changes = groups.map((group) => takeOver(group));
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

      for (let g = 0; g < groups.length; g += 1) handOver(groups[g]!, changes[g]!);
      lap('foldMs');
      // A held table grown past the limit is written now (its changes of this page included), and from the next
      // page on updated batch by batch: once every batch before is written.
      const overLimit = groups.some((group) => [...group.held.values()].some((table) => table.size > heldRowLimit));
      await queue.waitForBacklog(overLimit ? 0 : ahead - 1);
      lap('writeWaitMs');
      if (overLimit) {
        await writeHeld(clients, groups, (table) => table.size > heldRowLimit, options.logger);
        lap('heldMs');
      }
      events += page.length;
      last = page.at(-1)!;
      batchEnds.set(queue.enqueued, { events, position: last.position });
      queue.enqueue(jobsOf(changes, page));
    }
    lap('foldMs');
    // What the last batch handed over, written by writers of their own (they hand nothing over).
    const handedOver = groups.map((group) => takeOver(group));
    if (handedOver.some((changes) => !changes.empty)) queue.enqueue(jobsOf(handedOver, []));
    await queue.drain();
    lap('writeWaitMs');
    await writeHeld(clients, groups, () => true, options.logger);
    lap('heldMs');
    options.logger.info({ events, ...roundedTime(time) }, "rebuild: where the load's time went");
    return { events, last, time, afterLoad };
  } finally {
    await queue.close();
    for (const pooled of lanesClients) {
      await pooled.client.query('RESET synchronous_commit').catch(() => undefined);
      pooled.release();
    }
  }
}

/** LoadTime in whole milliseconds, the groups' costliest first (for the log). */
export function roundedTime(time: LoadTime): LoadTime {
  const groups = [...time.groups].sort((a, b) => b.writeMs - a.writeMs).map((group) => ({ projections: group.projections, writeMs: Math.round(group.writeMs) }));
  return { readMs: Math.round(time.readMs), foldMs: Math.round(time.foldMs), writeWaitMs: Math.round(time.writeWaitMs), heldMs: Math.round(time.heldMs), groups };
}

/** A group's changes whose writers start from what a batch handed over (BatchWriter.takeOver). */
function changesFrom(group: Group, handed: ReadonlyMap<Projection, unknown>): BatchChanges {
  const changes = new BatchChanges(group.layout, group.held);
  for (const [projection, value] of handed) changes.writerFor(projection).takeOver!(value);
  return changes;
}

/** A group's changes for its next batch, its writers given first what the batch before handed over. */
function takeOver(group: Group): BatchChanges {
  const changes = changesFrom(group, group.handed);
  changes.handedIn = group.handed;
  group.handed = new Map();
  return changes;
}

/** Once a group's batch is folded: what its writers leave to the next batch instead of writing it. */
function handOver(group: Group, changes: BatchChanges): void {
  for (const [projection, writer] of changes.writers) {
    const handed = writer.handOver?.();
    if (handed !== undefined) group.handed.set(projection, handed);
  }
}

/**
 * Writes the held tables that `due` picks, spread over the lanes, the lanes at once, and stops holding them (called
 * with every batch before written). Rows held over the load are each written once, by COPY, instead of updated in
 * every batch that moved them: for the balances, thousands of rows per batch (an UPDATE each batch read every page of
 * the table again).
 */
async function writeHeld(clients: readonly pg.ClientBase[], groups: readonly Group[], due: (table: HeldTable) => boolean, logger: ProjectorLogger): Promise<void> {
  const work = groups.flatMap((group) => [...group.held].filter(([, table]) => due(table)).map(([name, table]) => ({ group, name, table })));
  if (work.length === 0) return;
  for (const { group, name } of work) group.held.delete(name);
  await allLanes(
    clients.map(async (client, lane) => {
      for (const { table } of work.filter((_, index) => index % clients.length === lane)) {
        const started = performance.now();
        await writeHeldRows(client, table);
        logger.info({ table: table.info.qualified, rows: table.size, ms: Math.round(performance.now() - started) }, 'rebuild: wrote the rows held over the load');
      }
    }),
  );
}

/**
 * Waits for every lane, then fails with the first lane's error if any: a lane still writing (possibly in a
 * transaction of its own, see BatchWriter.copy) when another fails must be done before its connection goes back to
 * the pool.
 */
async function allLanes(lanes: readonly Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(lanes);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * One group's share of a batch, on a lane's connection, each statement its own short transaction (a long one would
 * hold back the event store's visibility fence for every reader of the log): COPY first; when a COPY meets an
 * existing key (the log inserts a row twice), the batch again with upserts; when the server refuses something else,
 * event by event to name it. Writing a batch again over what it already wrote changes nothing: every change is
 * idempotent. A group writing a table without its key yet (keyAfterLoad) can do neither: its failure refuses the load
 * (KeysAfterLoadRefused), which rebuildProjections does again with the keys.
 */
async function writeGroup(
  client: pg.ClientBase,
  group: Group,
  changes: BatchChanges,
  events: readonly RecordedEvent[],
  logger: ProjectorLogger,
  afterLoad: (table: FoldedTable, statement: Statement) => void,
): Promise<void> {
  try {
    const started = performance.now();
    await copyChanges(client, changes, afterLoad);
    const ms = performance.now() - started;
    group.spent.writeMs += ms;
    group.writeMs = group.writeMs === 0 ? ms : group.writeMs + WRITE_COST_WEIGHT * (ms - group.writeMs);
    return;
  } catch (error) {
    if (error instanceof EventApplyError || isTransientDatabaseError(error)) throw error;
    // The upserts and the event-by-event writes below need the tables' keys.
    const keyless = [...group.layout.writable.values()].find((table) => table.info.keyAfterLoad);
    if (keyless) throw new KeysAfterLoadRefused(`writing a batch of ${keyless.info.qualified} failed: ${(error as Error).message}`);
    if (isDuplicateKeyError(error)) {
      logger.info({ from: events[0]?.id, to: events.at(-1)?.id, events: events.length, projections: group.spent.projections }, 'rebuild: a batch inserts rows that exist already; writing it with upserts');
      try {
        await writeChanges(client, changes);
        return;
      } catch (retryError) {
        if (retryError instanceof EventApplyError || isTransientDatabaseError(retryError)) throw retryError;
      }
    }
  }
  // What the batch before handed over comes first in the log: written before the events, by writers of its own.
  if (changes.handedIn.size > 0) await writeChanges(client, changesFrom(group, changes.handedIn));
  await writeEventByEvent(client, group.dispatcher, group.layout, events, group.held);
}

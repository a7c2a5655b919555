/**
 * The bulk path of `seed:scale` into an EMPTY PostgreSQL event store: the generated history (seedSpill.ts lines, in
 * the log's order, seedDays.ts) goes into the events and streams tables by COPY, in transactions of about
 * `eventsPerTransaction` events, with the events table's unique keys (ensureEventStoreSchema.ts defines them) dropped
 * before and built once after; the global log's read index stays (its rows come in its order). It gives each event
 * its global position as it writes it, so it hands the events back with their positions (takeWritten) and the
 * history's day closes fold them in memory instead of committing and reading each day back (seedDays.ts). What stays
 * exactly as the store's append function leaves it:
 *
 * - the events: the same rows (stream, revisions from 0, event id, type, data, metadata with the hash chain the
 *   generator computed with toNewEvents, as for an append), `transaction_id` by the column's default, and `created`
 *   the instant the history records the event at (seedDays.ts: a day's events just before its close, the close's
 *   own at its instant), so that the log's recorded instants are the history's, as the day closes' are — a trial
 *   balance at an instant of the history replays what was recorded by then; without an instant, the load's;
 * - the global positions: the store's sequence, in order, without gaps, and the sequence set past them in each
 *   transaction; a transaction's events share its transaction id, as a batch of appends does;
 * - the streams table: one row per stream with the revision of its last event.
 *
 * The signed checkpoints are written by the integrity service's own writer (createCheckpointWriter), fed each
 * transaction's events once it has committed instead of reading them back from the log: the same records, signed
 * with the same keys, as the bank's writer would write on its first start.
 *
 * A load cut short leaves the schema marked (markEventStoreBulkLoad): the next start of the store builds the indexes
 * again, and the store is no longer empty, so a new bulk load is refused — drop the database and load again.
 */
import { comparePositions, createEventsIndexSql, createEventsSecondaryIndexes, dropEventsSecondaryIndexes, ensureEventStoreSchema, EVENTS_INDEXES, markEventStoreBulkLoad, type EventStore, type Position, type ReadAllOptions, type RecordedEvent } from '@bank/eventstore';
import { CHAIN_KEY_ID } from '@bank/commands';
import { createCheckpointWriter, listCheckpointFiles, type CheckpointWriter } from '@bank/integrity';
import type { Keyring } from '@bank/platform';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Writable } from 'node:stream';
import { copyField } from './copyField';
import { encodeSegment, decodeLine, type SlotLines, type SpilledEvent } from './seedSpill';
import { isoMicros, type RecordedAt, type SeedSink, type WrittenEvent } from './seedStream';

export interface BulkEventLoadOptions {
  readonly pool: pg.Pool;
  /** The store the events are for (its position tokens name the checkpoints' positions). */
  readonly store: Pick<EventStore, 'positionToken'>;
  /** Where the signed checkpoints go (a directory with no checkpoint files yet) and the keys that sign them. */
  readonly checkpoints?: { readonly dir: string; readonly keys: Pick<Keyring, 'current' | 'byId'> };
  /** Events per transaction (default 50,000): each commits, then its checkpoint records are written. */
  readonly eventsPerTransaction?: number;
}

export interface BulkEventLoad extends SeedSink {
  /** Loads events of the spilled history (seedSpill.ts), after everything handed over before; answers the last position. */
  appendSpilled(spilled: readonly SpilledEvent[], recordedAt?: RecordedAt): Promise<Position | undefined>;
  /** Commits the open transaction: what was handed over is readable in the store. */
  commit(): Promise<void>;
  /** The events handed over since the last call, each with the position and instant the log records it at. */
  takeWritten(): Promise<readonly WrittenEvent[]>;
  /** Commits the last transaction, builds the indexes and marks the schema installed again. */
  finish(): Promise<BulkLoadResult>;
  /** Rolls back the open transaction and builds the indexes again (what was committed stays). */
  abort(): Promise<void>;
}

export interface BulkLoadResult {
  readonly events: number;
  readonly streams: number;
  readonly transactions: number;
  /** The last event's position (undefined: nothing loaded). */
  readonly position: Position | undefined;
  /** Building the secondary indexes after the load. */
  readonly indexSeconds: number;
  /** Writing the signed checkpoints (inside the load's time). */
  readonly checkpointSeconds: number;
}

/** The store is not empty (or its checkpoint directory already holds a chain): the bulk path loads a fresh bank only. */
export class BulkLoadRefusedError extends Error {
  override readonly name = 'BulkLoadRefusedError';
}

const EVENT_COLUMNS = 'global_position, stream_id, revision, event_id, type, data, metadata, created';
/** Bytes handed to the COPY stream at a time. */
const WRITE_BYTES = 256 * 1024;

export { copyField };
/** What the checkpoint writer reads of an event (stream, revision, position, hashes); the rest it never looks at. */
function checkpointView(event: SpilledEvent, position: Position): RecordedEvent {
  const metadata = { hash: event.hash, prevHash: event.prevHash, ...(event.keyId === null ? {} : { [CHAIN_KEY_ID]: event.keyId }) };
  return { id: '', streamId: event.stream, revision: BigInt(event.revision), position, type: '', data: {}, metadata, created: new Date(0) };
}

/** Refuses unless the events and streams tables are empty, then drops the indexes and marks the schema (one transaction). */
async function prepare(client: pg.PoolClient): Promise<bigint> {
  const { rows } = await client.query<{ events: string; streams: string }>(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM eventstore.events LIMIT 1) e)::text AS events,
            (SELECT count(*) FROM (SELECT 1 FROM eventstore.streams LIMIT 1) s)::text AS streams`,
  );
  if (rows[0]!.events !== '0' || rows[0]!.streams !== '0') {
    throw new BulkLoadRefusedError(
      'The event store is not empty: the bulk load writes a generated bank into an empty store only. Use a fresh database ' +
        '(DATABASE_URL), or `npm run seed:scale -- --appends` to write through the store’s appends (which also finishes an interrupted appends load).',
    );
  }
  await client.query('BEGIN');
  try {
    await client.query('LOCK TABLE eventstore.events IN ACCESS EXCLUSIVE MODE');
    await dropEventsSecondaryIndexes(client);
    // The global log's read index stays: its rows come in its own order (cheap), and the day closes of the generated
    // history read each day back through it (seedDays.ts).
    await createEventsReadIndexes(client);
    await markEventStoreBulkLoad(client);
    const { rows: sequence } = await client.query<{ last: string; called: boolean }>('SELECT last_value::text AS last, is_called AS called FROM eventstore.events_global_position_seq');
    await client.query('COMMIT');
    return sequence[0]!.called ? BigInt(sequence[0]!.last) + 1n : BigInt(sequence[0]!.last);
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/**
 * The global log's read order index, kept through the load. The others (the BRIN index on `created` among them) are
 * built with the unique keys once the rows are in: a BRIN index loaded into would leave its ranges to autovacuum's
 * work items, far fewer than a load fills, and a range not summarized matches every read by instant.
 */
async function createEventsReadIndexes(client: pg.PoolClient): Promise<void> {
  for (const index of EVENTS_INDEXES) if (!index.method) await client.query(createEventsIndexSql('eventstore.events', index));
}

export async function openBulkEventLoad(options: BulkEventLoadOptions): Promise<BulkEventLoad> {
  const { pool, store } = options;
  const perTransaction = options.eventsPerTransaction ?? 50_000;
  if (options.checkpoints && (await listCheckpointFiles(options.checkpoints.dir)).length > 0) {
    throw new BulkLoadRefusedError(`${options.checkpoints.dir} already holds signed checkpoints (of another log): a bulk load starts a new chain in an empty CHECKPOINT_DIR.`);
  }
  const client = await pool.connect();
  let nextPosition: bigint;
  try {
    nextPosition = await prepare(client);
  } catch (error) {
    client.release();
    throw error;
  }

  // The committed transaction's events, as the checkpoint writer reads them from the log.
  let committed: RecordedEvent[] = [];
  const logView = {
    positionToken: (position: Position) => store.positionToken(position),
    readAll: async ({ after, limit = 1000 }: ReadAllOptions = {}): Promise<RecordedEvent[]> => {
      const start = after === undefined ? 0 : committed.findIndex((event) => comparePositions(event.position, after) > 0);
      return start < 0 ? [] : committed.slice(start, start + limit);
    },
  };
  // The writer reads only readAll and positionToken of its store.
  const writer: CheckpointWriter | undefined = options.checkpoints
    ? createCheckpointWriter({ store: logView as unknown as EventStore, keys: options.checkpoints.keys, dir: options.checkpoints.dir, pageSize: 10_000 })
    : undefined;

  let events = 0;
  let streams = 0;
  let transactions = 0;
  let checkpointMs = 0;
  let last: Position | undefined;
  // Handed over since the last takeWritten (a day's events: seedDays takes them at each close).
  let written: WrittenEvent[] = [];

  interface Open {
    readonly xid: bigint;
    readonly copy: Writable;
    readonly done: Promise<void>;
    failed: Error | undefined;
    /** The COPY's bytes not yet handed to its stream: `used` bytes of `chunk`. */
    chunk: Buffer;
    used: number;
    streamRows: string[];
    seen: RecordedEvent[];
    count: number;
  }
  let open: Open | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const begin = async (): Promise<Open> => {
    await client.query('BEGIN');
    const { rows } = await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
    const copy = client.query(copyFrom(`COPY eventstore.events (${EVENT_COLUMNS}) FROM STDIN`));
    const state: Open = { xid: BigInt(rows[0]!.xid), copy, done: Promise.resolve(), failed: undefined, chunk: Buffer.allocUnsafe(WRITE_BYTES), used: 0, streamRows: [], seen: [], count: 0 };
    (state as { done: Promise<void> }).done = new Promise<void>((resolve, reject) => {
      copy.on('finish', resolve);
      copy.on('error', (error: Error) => {
        state.failed = error;
        reject(error);
      });
    });
    state.done.catch(() => undefined);
    return state;
  };

  const send = async (state: Open): Promise<void> => {
    if (state.failed) throw state.failed;
    // The stream keeps the bytes it was handed until they are sent: the next ones go into a new chunk.
    const bytes = state.chunk.subarray(0, state.used);
    state.chunk = Buffer.allocUnsafe(WRITE_BYTES);
    state.used = 0;
    if (!state.copy.write(bytes)) {
      await new Promise<void>((resolve, reject) => {
        state.copy.once('drain', resolve);
        state.done.catch(reject);
      });
    }
  };

  const commit = async (state: Open): Promise<void> => {
    if (state.used > 0) await send(state);
    state.copy.end();
    await state.done;
    const streamCopy = client.query(copyFrom('COPY eventstore.streams (stream_id, revision) FROM STDIN'));
    await new Promise<void>((resolve, reject) => {
      streamCopy.on('finish', resolve);
      streamCopy.on('error', reject);
      streamCopy.end(state.streamRows.join(''));
    });
    await client.query(`SELECT setval('eventstore.events_global_position_seq', $1)`, [String(nextPosition - 1n)]);
    await client.query('COMMIT');
    transactions += 1;
    if (writer) {
      const started = performance.now();
      committed = state.seen;
      await writer.writeOnce();
      committed = [];
      checkpointMs += performance.now() - started;
    }
  };

  const appendSpilled = async (spilled: readonly SpilledEvent[], recordedAt: RecordedAt | undefined): Promise<Position | undefined> => {
    if (spilled.length === 0) return undefined;
    open ??= await begin();
    const state = open;
    const now = Date.now() * 1000;
    let position: Position | undefined;
    for (const [index, event] of spilled.entries()) {
      position = { commit: state.xid, prepare: nextPosition };
      const micros = recordedAt ? recordedAt(index) : now;
      // The line's bytes as the spill holds them, between its global position and its instant (both ASCII).
      const global = String(nextPosition);
      const instant = `\t${isoMicros(micros)}\n`;
      const bytes = global.length + event.copyLine.length + instant.length;
      if (state.used + bytes > state.chunk.length) {
        if (state.used > 0) await send(state);
        if (bytes > state.chunk.length) state.chunk = Buffer.allocUnsafe(bytes);
      }
      state.used += state.chunk.write(global, state.used, 'latin1');
      state.used += event.copyLine.copy(state.chunk, state.used);
      state.used += state.chunk.write(instant, state.used, 'latin1');
      written.push({ spilled: event, position, recordedAtMicros: micros });
      if (writer) state.seen.push(checkpointView(event, position));
      if (event.final) {
        state.streamRows.push(`${copyField(event.stream)}\t${event.revision}\n`);
        streams += 1;
      }
      nextPosition += 1n;
    }
    state.count += spilled.length;
    events += spilled.length;
    last = position;
    if (state.count >= perTransaction) {
      open = undefined;
      await commit(state);
    }
    return position;
  };

  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => undefined);
    return result;
  };

  const rebuildIndexes = async (): Promise<number> => {
    const started = performance.now();
    await client.query(`SET maintenance_work_mem = '512MB'`);
    await createEventsSecondaryIndexes(client);
    await client.query('RESET maintenance_work_mem');
    await ensureEventStoreSchema(pool);
    // The planner's statistics: autovacuum would take its time over a table that came in one go, and until then the
    // reads by instant (readRecordedSince) are planned blind, on the log's order index alone.
    await client.query('ANALYZE eventstore.events');
    await client.query('ANALYZE eventstore.streams');
    return (performance.now() - started) / 1000;
  };

  return {
    append(stream, newEvents, fromRevision, isLast, recordedAt) {
      const lines: SlotLines = new Map();
      encodeSegment(lines, stream, { slot: 0, fromRevision, events: newEvents, last: isLast });
      const spilled = (lines.get(0) ?? '').split('\n').filter(Boolean).map(decodeLine);
      return serially(() => appendSpilled(spilled, recordedAt));
    },
    appendSpilled(spilled, recordedAt) {
      return serially(() => appendSpilled(spilled, recordedAt));
    },
    takeWritten() {
      return serially(async () => {
        const taken = written;
        written = [];
        return taken;
      });
    },
    commit() {
      return serially(async () => {
        if (!open) return;
        const state = open;
        open = undefined;
        await commit(state);
      });
    },
    async finish() {
      try {
        await queue;
        if (open) {
          const state = open;
          open = undefined;
          await commit(state);
        }
        const indexSeconds = await rebuildIndexes();
        return { events, streams, transactions, position: last, indexSeconds, checkpointSeconds: checkpointMs / 1000 };
      } finally {
        client.release();
      }
    },
    async abort() {
      await queue.catch(() => undefined);
      // Closing the connection rolls back its open transaction (a COPY in the middle included).
      client.release(true);
      open = undefined;
      await createEventsSecondaryIndexes(pool);
      await ensureEventStoreSchema(pool);
    },
  };
}

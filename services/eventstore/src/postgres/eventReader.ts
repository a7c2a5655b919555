import { createTurnBatcher, inTransaction } from '@bank/platform';
import type pg from 'pg';
import type { EventMetadata, LastStreamEvent, Position, ReadAllOptions, ReadRecordedOptions, ReadRecordedSinceOptions, RecordedEvent, RecordedPage, StreamEventCount, StreamTail } from '../eventStore';
import { TOMBSTONE_REVISION, type EventStoreSchema } from './eventStoreSchema';

export const DEFAULT_READ_LIMIT = 1000;
const MAX_BIGINT = 2n ** 63n - 1n;

/** One stream read as the port asks it: from a revision, at most `limit` events (null: all). */
interface StreamReadRequest {
  readonly stream: string;
  readonly from: bigint;
  readonly limit: number | null;
}

interface EventRow {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  revision: string;
  event_id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
  /** Milliseconds since the epoch: a number parses far faster than a timestamp text, on every event read. */
  created_ms: string;
}

interface HeadColumns {
  head_transaction_id: string | null;
  head_global_position: string | null;
}

/** One read of a subscription: the events, whether more wait behind the fence, and the readable head. */
export interface SubscriptionBatch {
  readonly events: RecordedEvent[];
  readonly heldBack: boolean;
  /** The last event readable when the batch was read (filtered out or not); undefined for an empty log. */
  readonly head: Position | undefined;
}

/** The most subscribers' reads gathered into one statement (createTurnBatcher). */
const SUBSCRIPTION_READS_IN_ONE = 20;

interface SubscriptionReadRequest {
  readonly after: Position | undefined;
  readonly limit: number;
  readonly types: readonly string[] | undefined;
}

type SubscriptionRow = EventRow & HeadColumns & { held_back: boolean };

/** A subscription's batch from its rows (one row of NULL event columns when it read no event). */
function subscriptionBatchOf(rows: readonly SubscriptionRow[]): SubscriptionBatch {
  const first = rows[0];
  const head =
    first?.head_transaction_id != null && first.head_global_position != null
      ? { commit: BigInt(first.head_transaction_id), prepare: BigInt(first.head_global_position) }
      : undefined;
  return { events: rows.filter((row) => row.global_position !== null).map(toRecordedEvent), heldBack: first?.held_back ?? false, head };
}

/** The most stream reads gathered into one statement (createTurnBatcher). */
const STREAMS_IN_ONE_READ = 200;

/** The most index walks (streams × (queries + 1)) streamTails makes in one plain query. */
export const TAILS_IN_ONE_ROUND_TRIP = 4_000;

const COLUMNS = 'global_position, transaction_id, stream_id, revision, event_id, type, data, metadata, floor(extract(epoch FROM created) * 1000)::int8 AS created_ms';

/**
 * Only transactions below the snapshot's xmin are certainly finished: no event can still appear with a smaller
 * transaction id. Reading the global log up to there, in (transaction_id, global_position) order, never returns
 * an event after one that a reader could see later behind it. See docs/eventstore.md.
 */
const VISIBLE = 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())';
/** The largest transaction id and position: no upper bound. */
const MAX_XID8 = 2n ** 64n - 1n;
const MAX_INT8 = 2n ** 63n - 1n;
/** A metadata key a read may ask for alone (written into its statement). */
const METADATA_KEY = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: BigInt(row.revision),
    position: { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) },
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    created: new Date(Number(row.created_ms)),
  };
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  return limit;
}

export function createEventReader(pool: pg.Pool, s: EventStoreSchema) {
  const readAllFromStart = `SELECT ${COLUMNS} FROM ${s.events} WHERE ${VISIBLE}
    ORDER BY transaction_id, global_position LIMIT $1`;
  const readAllAfter = `SELECT ${COLUMNS} FROM ${s.events} WHERE ${VISIBLE}
    AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
    ORDER BY transaction_id, global_position LIMIT $3`;
  // The log as it stood at an instant: the events recorded by $4 (of the types $6 when not NULL) and the first event
  // recorded after $5, whose flag `past` ends the read; those recorded in between are skipped here, not sent. The
  // instants compare at the port's millisecond (RecordedEvent.created is created's millisecond, rounded down).
  const readRecorded = `SELECT ${COLUMNS}, created >= $5::timestamptz + interval '1 millisecond' AS past FROM ${s.events}
    WHERE ${VISIBLE} AND (transaction_id, global_position) > ($1::xid8, $2::bigint)
      AND ((created < $4::timestamptz + interval '1 millisecond' AND ($6::text[] IS NULL OR type = ANY ($6::text[])))
        OR created >= $5::timestamptz + interval '1 millisecond')
    ORDER BY transaction_id, global_position LIMIT $3`;
  // The log after ($1, $2) and up to ($6, $7) recorded from $5 to $3 (at its millisecond), of the types $4, found by
  // instant: the BRIN index on `created` gives the blocks recorded in the window (a walk of the log from the position
  // in order would read on past $3, through whatever was recorded after it); the (transaction_id, global_position)
  // index gives the range between the two positions. PostgreSQL intersects the two when both are narrow (a past
  // day: the window leaves out what was recorded after the instant, the range what the margin reaches before the
  // start), and takes the narrow one alone otherwise (no upper bound: the range runs to the log's end). Sent unnamed,
  // so that each read is planned with its own window: a generic plan cannot tell a day from the whole log.
  const readRecordedSince = (metadata: string) => `SELECT ${COLUMNS.replace(/\bmetadata\b/, metadata)} FROM ${s.events}
    WHERE created >= $5::timestamptz AND created < $3::timestamptz + interval '1 millisecond' AND type = ANY ($4::text[])
      AND (transaction_id, global_position) > ($1::xid8, $2::bigint) AND (transaction_id, global_position) <= ($6::xid8, $7::bigint)
      AND ${VISIBLE}`;
  const recordedAtPosition = `SELECT created FROM ${s.events} WHERE global_position = $1::bigint`;
  // Per set of metadata keys asked for (or none: the whole metadata), the statement's text: the keys are written
  // into it, checked first.
  const sinceStatements = new Map<string, string>();
  const sinceStatement = (keys: readonly string[] | undefined): string => {
    const id = keys ? `keys:${keys.join(',')}` : 'whole';
    let text = sinceStatements.get(id);
    if (text === undefined) {
      if (keys?.some((key) => !METADATA_KEY.test(key))) throw new RangeError('metadataKeys must be plain names (letters, digits, _)');
      const metadata = keys ? `jsonb_strip_nulls(jsonb_build_object(${keys.map((key) => `'${key}', metadata -> '${key}'`).join(', ')})) AS metadata` : 'metadata';
      text = readRecordedSince(metadata);
      sinceStatements.set(id, text);
    }
    return text;
  };
  // The same batch as readAllAfter (only the given types when $4 is not NULL), plus whether committed events wait
  // behind the fence (a transaction that began earlier is still open) and the visible head (the last event below
  // the fence, filtered out or not): one row of NULL batch columns when the batch is empty. "Held back" compares the
  // newest transaction id in the log (one step of the index, backwards) with the fence: an EXISTS over
  // `transaction_id >= fence` instead is planned as a sequential scan of the whole table, on every batch.
  const subscriptionRead = `WITH fence AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
    head AS MATERIALIZED (SELECT transaction_id AS head_transaction_id, global_position AS head_global_position
      FROM ${s.events} WHERE transaction_id < (SELECT xmin FROM fence)
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1),
    batch AS (SELECT ${COLUMNS} FROM ${s.events}, fence WHERE transaction_id < fence.xmin
      AND (transaction_id, global_position) > ($1::xid8, $2::bigint) AND ($4::text[] IS NULL OR type = ANY ($4::text[]))
      ORDER BY transaction_id, global_position LIMIT $3)
    SELECT batch.*, head.head_transaction_id, head.head_global_position,
      COALESCE((SELECT transaction_id FROM ${s.events} ORDER BY transaction_id DESC LIMIT 1) >= fence.xmin, false) AS held_back
    FROM fence LEFT JOIN head ON true LEFT JOIN batch ON true ORDER BY batch.transaction_id, batch.global_position`;
  // Several subscribers' reads in one statement (the subscribers of a process woken by one notification): one fence,
  // head and "held back" for all, then per request the same batch as subscriptionRead (types as a comma-joined list:
  // event types never hold a comma). Rows ordered by request; a request with no events has one row of NULL batch columns.
  const subscriptionReads = `WITH fence AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),
    head AS MATERIALIZED (SELECT transaction_id AS head_transaction_id, global_position AS head_global_position
      FROM ${s.events} WHERE transaction_id < (SELECT xmin FROM fence)
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1),
    held AS MATERIALIZED (SELECT COALESCE((SELECT transaction_id FROM ${s.events} ORDER BY transaction_id DESC LIMIT 1) >= (SELECT xmin FROM fence), false) AS held_back),
    q AS MATERIALIZED (SELECT r.request, r.after_commit, r.after_prepare, r.max_rows, string_to_array(r.type_list, ',') AS types
      FROM unnest($1::xid8[], $2::int8[], $3::int4[], $4::text[]) WITH ORDINALITY AS r(after_commit, after_prepare, max_rows, type_list, request))
    SELECT q.request, batch.*, head.head_transaction_id, head.head_global_position, held.held_back
    FROM q CROSS JOIN held LEFT JOIN head ON true
    LEFT JOIN LATERAL (SELECT ${COLUMNS} FROM ${s.events}, fence WHERE transaction_id < fence.xmin
      AND (transaction_id, global_position) > (q.after_commit, q.after_prepare) AND (q.types IS NULL OR type = ANY (q.types))
      ORDER BY transaction_id, global_position LIMIT q.max_rows) AS batch ON true
    ORDER BY q.request, batch.transaction_id, batch.global_position`;
  const readStream = `SELECT ${COLUMNS} FROM ${s.events} WHERE stream_id = $1 AND revision >= $2
    AND NOT EXISTS (SELECT 1 FROM ${s.streams} st WHERE st.stream_id = $1 AND st.revision = ${TOMBSTONE_REVISION})
    ORDER BY revision LIMIT $3`;
  // Several streams' reads in one statement (createTurnBatcher's): per request, its stream's index range from its revision
  // (at most its limit), unless the stream is tombstoned; rows ordered by request, then revision.
  const readStreams = `SELECT q.request, ev.* FROM unnest($1::text[], $2::int8[], $3::int8[]) WITH ORDINALITY AS q(wanted, from_revision, max_rows, request)
    CROSS JOIN LATERAL (SELECT ${COLUMNS} FROM ${s.events} e WHERE e.stream_id = q.wanted AND e.revision >= q.from_revision
      ORDER BY e.revision LIMIT q.max_rows) AS ev
    WHERE (SELECT st.revision FROM ${s.streams} st WHERE st.stream_id = q.wanted) IS DISTINCT FROM ${TOMBSTONE_REVISION}
    ORDER BY q.request, ev.revision`;
  const liveStream = `NOT EXISTS (SELECT 1 FROM ${s.streams} st WHERE st.stream_id = $1 AND st.revision = ${TOMBSTONE_REVISION})`;
  // Both walk the (stream_id, revision) index: a range counted in place, or backwards from $2 to the first match.
  const eventById = `SELECT ${COLUMNS} FROM ${s.events} WHERE stream_id = $1 AND event_id = $2
    AND NOT EXISTS (SELECT 1 FROM ${s.streams} st WHERE st.stream_id = $1 AND st.revision = ${TOMBSTONE_REVISION})`;
  const countStream = `SELECT count(*)::int8 AS n FROM ${s.events} WHERE stream_id = $1 AND revision BETWEEN $2 AND $3
    AND type = ANY ($4::text[]) AND ${liveStream}`;
  const lastInStream = `SELECT ${COLUMNS} FROM ${s.events} WHERE stream_id = $1 AND revision <= $2
    AND ($3::text[] IS NULL OR type = ANY ($3::text[])) AND ($4::jsonb IS NULL OR data @> $4::jsonb) AND ${liveStream}
    ORDER BY revision DESC LIMIT 1`;
  // Per stream, query 0 is its last event and query n its last event whose data contains the n-th object: each a
  // backwards walk of the (stream_id, revision) index to the first match. The queries come from generate_series over
  // the array's length, so that the planner counts them (not jsonb_array_elements' guess of 100 rows), and the
  // tombstone is a per-stream probe of the streams key (an anti join would scan the whole table): the plan's cost then
  // stays below jit_above_cost for a few thousand streams, one round trip without JIT.
  const tails = `SELECT s.stream_id AS tail_stream, q.n AS tail_query, ev.* FROM unnest($1::text[]) AS s(stream_id)
    CROSS JOIN LATERAL (SELECT x.n, CASE WHEN x.n = 0 THEN NULL ELSE $2::jsonb -> (x.n - 1) END AS m
      FROM generate_series(0, jsonb_array_length($2::jsonb)) AS x(n)) AS q
    CROSS JOIN LATERAL (SELECT ${COLUMNS} FROM ${s.events} e WHERE e.stream_id = s.stream_id AND (q.m IS NULL OR e.data @> q.m)
      ORDER BY e.revision DESC LIMIT 1) AS ev
    WHERE (SELECT st.revision FROM ${s.streams} st WHERE st.stream_id = s.stream_id) IS DISTINCT FROM ${TOMBSTONE_REVISION}`;
  const atGlobalPosition = `SELECT transaction_id, global_position FROM ${s.events} WHERE global_position = $1`;
  const streamHeads = `SELECT stream_id, revision FROM ${s.streams}`;
  const head = `SELECT transaction_id, global_position FROM ${s.events} WHERE ${VISIBLE}
    ORDER BY transaction_id DESC, global_position DESC LIMIT 1`;

  async function readOneStream(request: StreamReadRequest): Promise<RecordedEvent[]> {
    const result = await pool.query<EventRow>({
      name: `${s.name}.read_stream`,
      text: readStream,
      values: [request.stream, request.from.toString(), request.limit],
    });
    return result.rows.map(toRecordedEvent);
  }

  async function readManyStreams(requests: readonly StreamReadRequest[]): Promise<RecordedEvent[][]> {
    const result = await pool.query<EventRow & { request: string }>({
      name: `${s.name}.read_streams`,
      text: readStreams,
      values: [requests.map((request) => request.stream), requests.map((request) => request.from.toString()), requests.map((request) => request.limit)],
    });
    const answers: RecordedEvent[][] = requests.map(() => []);
    for (const row of result.rows) answers[Number(row.request) - 1]!.push(toRecordedEvent(row));
    return answers;
  }

  async function readOneForSubscription({ after, limit, types }: SubscriptionReadRequest): Promise<SubscriptionBatch> {
    const result = await pool.query<SubscriptionRow>({
      name: `${s.name}.read_all_subscription`,
      text: subscriptionRead,
      values: [(after?.commit ?? 0n).toString(), (after?.prepare ?? 0n).toString(), limit, types ? [...types] : null],
    });
    return subscriptionBatchOf(result.rows);
  }

  async function readManyForSubscription(requests: readonly SubscriptionReadRequest[]): Promise<SubscriptionBatch[]> {
    const result = await pool.query<SubscriptionRow & { request: string }>({
      name: `${s.name}.read_all_subscriptions`,
      text: subscriptionReads,
      values: [
        requests.map((request) => (request.after?.commit ?? 0n).toString()),
        requests.map((request) => (request.after?.prepare ?? 0n).toString()),
        requests.map((request) => request.limit),
        requests.map((request) => (request.types ? request.types.join(',') : null)),
      ],
    });
    const rowsOf: SubscriptionRow[][] = requests.map(() => []);
    for (const row of result.rows) rowsOf[Number(row.request) - 1]!.push(row);
    return rowsOf.map(subscriptionBatchOf);
  }

  const subscriptionReadsOfTurn = createTurnBatcher({ runOne: readOneForSubscription, runMany: readManyForSubscription, maxBatch: SUBSCRIPTION_READS_IN_ONE });

  const streamReadsOfTurn = createTurnBatcher({ runOne: readOneStream, runMany: readManyStreams, maxBatch: STREAMS_IN_ONE_READ });

  return {
    async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
      const limit = checkLimit(options.limit ?? DEFAULT_READ_LIMIT);
      const result = options.after
        ? await pool.query<EventRow>({
            name: `${s.name}.read_all_after`,
            text: readAllAfter,
            values: [options.after.commit.toString(), options.after.prepare.toString(), limit],
          })
        : await pool.query<EventRow>({ name: `${s.name}.read_all`, text: readAllFromStart, values: [limit] });
      return result.rows.map(toRecordedEvent);
    },

    async readRecorded(options: ReadRecordedOptions): Promise<RecordedPage> {
      const limit = checkLimit(options.limit ?? DEFAULT_READ_LIMIT);
      if (options.endAfter.getTime() < options.atOrBefore.getTime()) throw new RangeError('endAfter must not be before atOrBefore');
      const result = await pool.query<EventRow & { past: boolean }>({
        name: `${s.name}.read_recorded`,
        text: readRecorded,
        values: [
          (options.after?.commit ?? 0n).toString(),
          (options.after?.prepare ?? 0n).toString(),
          limit,
          options.atOrBefore.toISOString(),
          options.endAfter.toISOString(),
          options.eventTypes ? [...options.eventTypes] : null,
        ],
      });
      const events: RecordedEvent[] = [];
      for (const row of result.rows) {
        if (row.past) return { events, ended: true };
        events.push(toRecordedEvent(row));
      }
      return { events, ended: result.rows.length < limit };
    },

    async readRecordedSince(options: ReadRecordedSinceOptions): Promise<RecordedEvent[]> {
      if (!(options.clockMarginMs >= 0) || !Number.isFinite(options.clockMarginMs)) throw new RangeError('clockMarginMs must be a finite number ≥ 0');
      const text = sinceStatement(options.metadataKeys);
      // Where the window starts: the position's own instant, or the caller's when earlier, less the margin.
      const { rows } = await pool.query<{ created: Date }>({ name: `${s.name}.recorded_at_position`, text: recordedAtPosition, values: [options.after.prepare.toString()] });
      const starts = [rows[0]?.created.getTime() ?? Number.NEGATIVE_INFINITY, options.recordedFrom?.getTime() ?? Number.POSITIVE_INFINITY];
      const from = Math.min(...starts) - options.clockMarginMs;
      const result = await pool.query<EventRow>({
        text,
        values: [
          options.after.commit.toString(),
          options.after.prepare.toString(),
          options.atOrBefore.toISOString(),
          [...options.eventTypes],
          Number.isFinite(from) ? new Date(from).toISOString() : '-infinity',
          (options.upTo?.commit ?? MAX_XID8).toString(),
          (options.upTo?.prepare ?? MAX_INT8).toString(),
        ],
      });
      return result.rows.map(toRecordedEvent);
    },

    /**
     * The subscription's read: the next batch after a position (from the start without one), of the given types
     * only when `types` is given; `heldBack` when committed events are not yet readable because a transaction that
     * began before them is still open; `head`, the last readable position (of any type). A reader that finds the
     * log held back retries soon: no notification comes when that other transaction ends (it may be the
     * projector's, or anything else writing on the server).
     */
    async readAllForSubscription(after: Position | undefined, limit: number, types?: readonly string[]): Promise<SubscriptionBatch> {
      checkLimit(limit);
      if (types?.some((type) => type.includes(','))) throw new RangeError('An event type to subscribe to cannot hold a comma');
      return subscriptionReadsOfTurn({ after, limit, types });
    },

    /**
     * A stream's events in revision order; none for a tombstoned stream (its events stay in the global log). Not
     * held back by the xmin filter: revisions are gap-free and a stream's appends are serialised, so every
     * committed event of the stream is returned (read-your-writes for command handlers).
     */
    async readStream(stream: string, options: { fromRevision?: bigint; limit?: number } = {}): Promise<RecordedEvent[]> {
      const from = options.fromRevision ?? 0n;
      const limit = options.limit === undefined ? null : checkLimit(options.limit);
      return streamReadsOfTurn({ stream, from: from < 0n ? 0n : from, limit });
    },

    /** See EventStore.readEvent: one probe of the (stream, event id) key; none for a tombstoned stream. */
    async readEvent(stream: string, eventId: string): Promise<RecordedEvent | undefined> {
      const result = await pool.query<EventRow>({ name: `${s.name}.event_by_id`, text: eventById, values: [stream, eventId] });
      const row = result.rows[0];
      return row ? toRecordedEvent(row) : undefined;
    },

    /** See EventStore.countStreamEvents: one index range of the stream, counted where it lies. */
    async countStreamEvents(stream: string, query: StreamEventCount): Promise<number> {
      const from = query.fromRevision ?? 0n;
      const result = await pool.query<{ n: string }>({
        name: `${s.name}.count_stream`,
        text: countStream,
        values: [stream, from < 0n ? '0' : from.toString(), query.toRevision.toString(), [...query.types]],
      });
      return Number(result.rows[0]?.n ?? 0);
    },

    /** See EventStore.lastStreamEvent: the stream's index read backwards from `toRevision` to the first match. */
    async lastStreamEvent(stream: string, query: LastStreamEvent = {}): Promise<RecordedEvent | undefined> {
      const to = query.toRevision ?? MAX_BIGINT;
      if (to < 0n) return undefined;
      const result = await pool.query<EventRow>({
        name: `${s.name}.last_in_stream`,
        text: lastInStream,
        values: [stream, to.toString(), query.types ? [...query.types] : null, query.dataContains ? JSON.stringify(query.dataContains) : null],
      });
      const row = result.rows[0];
      return row ? toRecordedEvent(row) : undefined;
    },

    /** See EventStore.streamTails: one query for every stream and query. */
    async streamTails(streams: readonly string[], dataContains: readonly Readonly<Record<string, unknown>>[] = []): Promise<ReadonlyMap<string, StreamTail>> {
      const found = new Map<string, { last?: RecordedEvent; matches: (RecordedEvent | undefined)[] }>();
      if (streams.length === 0) return new Map();
      const query = { name: `${s.name}.stream_tails`, text: tails, values: [[...new Set(streams)], JSON.stringify(dataContains)] };
      // Up to TAILS_IN_ONE_ROUND_TRIP walks the plan's estimate stays below jit_above_cost; beyond, JIT is turned off
      // for the read (compiling would cost many times the read itself).
      const result =
        streams.length * (dataContains.length + 1) <= TAILS_IN_ONE_ROUND_TRIP
          ? await pool.query<EventRow & { tail_stream: string; tail_query: string }>(query)
          : await inTransaction(pool, async (client) => {
              await client.query('SET LOCAL jit = off');
              return client.query<EventRow & { tail_stream: string; tail_query: string }>(query);
            });
      for (const row of result.rows) {
        let tail = found.get(row.tail_stream);
        if (!tail) found.set(row.tail_stream, (tail = { matches: dataContains.map(() => undefined) }));
        const query = Number(row.tail_query);
        if (query === 0) tail.last = toRecordedEvent(row);
        else tail.matches[query - 1] = toRecordedEvent(row);
      }
      const answer = new Map<string, StreamTail>();
      for (const [stream, tail] of found) if (tail.last) answer.set(stream, { last: tail.last, matches: tail.matches });
      return answer;
    },

    async headPosition(): Promise<Position | undefined> {
      const result = await pool.query<Pick<EventRow, 'transaction_id' | 'global_position'>>({ name: `${s.name}.head`, text: head });
      const row = result.rows[0];
      return row ? { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) } : undefined;
    },

    /** Every stream's last revision from the `streams` index (the tombstone revision for a tombstoned stream). */
    async streamHeads(): Promise<ReadonlyMap<string, bigint>> {
      const result = await pool.query<{ stream_id: string; revision: string }>({ name: `${s.name}.stream_heads`, text: streamHeads });
      return new Map(result.rows.map((row) => [row.stream_id, BigInt(row.revision)]));
    },

    /** The token of a position is its global sequence number, unique on its own. */
    positionToken(position: Position): string {
      return position.prepare.toString();
    },

    /** The position of the stored (committed) event with that global sequence number. */
    async resolvePositionToken(token: string): Promise<Position | undefined> {
      if (!/^\d{1,19}$/.test(token) || BigInt(token) > MAX_BIGINT) return undefined;
      const result = await pool.query<Pick<EventRow, 'transaction_id' | 'global_position'>>({
        name: `${s.name}.at_global_position`,
        text: atGlobalPosition,
        values: [token],
      });
      const row = result.rows[0];
      return row ? { commit: BigInt(row.transaction_id), prepare: BigInt(row.global_position) } : undefined;
    },
  };
}

export type EventReader = ReturnType<typeof createEventReader>;

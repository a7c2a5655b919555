import { inTransaction } from '@bank/platform';
import type pg from 'pg';
import { checkNewEvents } from '../checkNewEvents';
import { StreamDeletedError, WrongExpectedVersionError } from '../errors';
import type { AppendResult, ExpectedRevision, NewEvent, StreamAppend, StreamAppendOutcome } from '../eventStore';
import { createAppendBatcher } from './appendBatcher';
import type { EventStoreSchema } from './eventStoreSchema';

interface AppendRow {
  result_kind: 'appended' | 'duplicate' | 'conflict' | 'deleted';
  result_revision: string | null;
  result_commit: string | null;
  result_prepare: string | null;
}

interface AppendRequest {
  readonly stream: string;
  readonly expected: 'any' | 'no_stream' | 'exists' | 'revision';
  readonly revision: string | null;
  readonly events: ReadonlyArray<{ id: string; type: string; data: Record<string, unknown>; metadata: object }>;
}

export interface EventAppenderOptions {
  /** Called after each batch that stored events has committed. */
  readonly onAppended: () => void;
  readonly maxBatchSize?: number;
  readonly maxConcurrentBatches?: number;
  /**
   * Test hook: when set, each batch runs in an explicit transaction that sleeps a random 0..appendDelayMs ms
   * after writing and before COMMIT, so that concurrent appends commit out of transaction-id order.
   */
  readonly appendDelayMs?: number;
}

export const DEFAULT_MAX_BATCH_SIZE = 64;
export const DEFAULT_MAX_CONCURRENT_BATCHES = 2;

/** The port's expected revision as the append function's (expected, revision) fields. */
export function toExpectation(expected: ExpectedRevision): Pick<AppendRequest, 'expected' | 'revision'> {
  if (typeof expected === 'bigint') {
    if (expected < 0n) throw new RangeError(`An expected revision is 0 or more (use 'no_stream' for none), got ${expected}`);
    return { expected: 'revision', revision: expected.toString() };
  }
  if (expected === 'any' || expected === 'no_stream' || expected === 'exists') return { expected, revision: null };
  throw new RangeError(`Unknown expected revision ${String(expected)}`);
}

export function createEventAppender(pool: pg.Pool, s: EventStoreSchema, options: EventAppenderOptions) {
  const text = `SELECT result_kind, result_revision, result_commit, result_prepare FROM ${s.appendFunction}($1::jsonb)`;
  const name = `${s.name}.append_batch`;

  async function run(batch: readonly AppendRequest[]): Promise<AppendRow[]> {
    const query = { name, text, values: [JSON.stringify(batch)] };
    let rows: AppendRow[];
    if (!options.appendDelayMs) {
      rows = (await pool.query<AppendRow>(query)).rows;
    } else {
      const delayMs = options.appendDelayMs;
      rows = await inTransaction(pool, async (client) => {
        const appended = (await client.query<AppendRow>(query)).rows;
        await client.query('SELECT pg_sleep($1)', [(Math.random() * delayMs) / 1000]);
        return appended;
      });
    }
    if (rows.length !== batch.length) throw new Error(`append_batch returned ${rows.length} results for ${batch.length} appends`);
    if (rows.some((row) => row.result_kind === 'appended')) options.onAppended();
    return rows;
  }

  const submit = createAppendBatcher<AppendRequest, AppendRow>({
    run,
    maxBatchSize: options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE,
    maxConcurrentBatches: options.maxConcurrentBatches ?? DEFAULT_MAX_CONCURRENT_BATCHES,
  });

  const request = (stream: string, events: readonly NewEvent[], expected: ExpectedRevision): AppendRequest => {
    checkNewEvents(events);
    return {
      stream,
      ...toExpectation(expected),
      events: events.map((event) => ({ id: event.id, type: event.type, data: event.data, metadata: event.metadata ?? {} })),
    };
  };

  /** See EventStore.appendMany: one call of the append function (one round trip, one transaction), not batched. */
  async function appendMany(appends: readonly StreamAppend[]): Promise<StreamAppendOutcome[]> {
    if (appends.length === 0) return [];
    const rows = await run(appends.map((one) => request(one.stream, one.events, one.expectedRevision)));
    return rows.map((row): StreamAppendOutcome => {
      if (row.result_kind === 'deleted') return { kind: 'deleted' };
      if (row.result_kind === 'conflict') return { kind: 'conflict', actualRevision: row.result_revision === null ? undefined : BigInt(row.result_revision) };
      return {
        kind: row.result_kind,
        nextExpectedRevision: BigInt(row.result_revision!),
        position: { commit: BigInt(row.result_commit!), prepare: BigInt(row.result_prepare!) },
      };
    });
  }

  async function append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const row = await submit(request(stream, events, expected));
    if (row.result_kind === 'deleted') throw new StreamDeletedError(stream);
    if (row.result_kind === 'conflict') {
      throw new WrongExpectedVersionError(stream, expected, row.result_revision === null ? undefined : BigInt(row.result_revision));
    }
    return {
      nextExpectedRevision: BigInt(row.result_revision!),
      position: { commit: BigInt(row.result_commit!), prepare: BigInt(row.result_prepare!) },
    };
  }

  return { append, appendMany };
}

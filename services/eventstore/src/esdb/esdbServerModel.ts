import {
  ANY,
  convertToCommandError,
  NO_STREAM,
  STREAM_EXISTS,
  StreamDeletedError as EsdbStreamDeletedError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  type AppendExpectedRevision,
  type AppendResult as EsdbAppendResult,
} from '@eventstore/db-client';
import { Metadata, status } from '@grpc/grpc-js';
import { StreamDeletedError } from '../errors';
import type { NewEvent, RecordedEvent } from '../eventStore';
import type { EsdbAppendIo } from './esdbAppend';

/** A gRPC failure as the client receives it, converted by the client's own convertToCommandError. */
export function grpcFailure(code: status, details: string, exception?: Record<string, string>): Error {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(exception ?? {})) metadata.set(key, value);
  const serviceError = Object.assign(new Error(`${code} ${status[code]}: ${details}`), { code, details, metadata });
  return convertToCommandError(serviceError) as Error;
}

/**
 * Test support (not exported): a single EventStoreDB node's write rules as the server implements them
 * (IndexWriter.CheckCommit, the batch-append answers) and the 6.2.1 client reports them, errors built with the
 * client's own classes and constructors. It lets the unit tests show the gaps of the server's own idempotency and
 * that appendToEsdb closes them; it is not a substitute for the conformance suite on a real server.
 *
 * - A stream's revision is its last event number, -1 (NO_STREAM) for none.
 * - NO_STREAM or a revision E below the stream's: the events must be the ones stored at E+1… (then an idempotent
 *   success without a position), else a conflict (also when only the first ones match: "corrupted idempotency").
 *   E equal to the stream's revision: appended, ids unchecked. E above it: conflict.
 * - ANY and STREAM_EXISTS (which first requires the stream): ids are looked up in a cache of recent writes only;
 *   `restart()` empties it, as a restart or an eviction does.
 * - A write answers with the position where it begins ({ commit: first record, prepare: first record }); a read gives
 *   each event { commit: the write's first record, prepare: its own record }.
 */
export class EsdbServerModel implements EsdbAppendIo {
  private readonly streams = new Map<string, { events: RecordedEvent[]; tombstoned: boolean }>();
  private readonly cache = new Map<string, { stream: string; revision: bigint }>();
  private logPosition = 1000n;
  private pendingBeforeWrite: Array<() => Promise<void> | void> = [];
  private loseAnswers = 0;
  /** throwOnAppendFailure=false in the connection string: conflicts resolve as `success: false`. */
  throwOnAppendFailure = true;
  readonly writes: Array<{ stream: string; ids: string[]; expected: AppendExpectedRevision }> = [];

  /** Runs `action` (e.g. another writer's append) just before the next write is applied. */
  beforeNextWrite(action: () => Promise<void> | void): void {
    this.pendingBeforeWrite.push(action);
  }

  /** The next write is applied, but its answer is lost (the client sees the server become unavailable). */
  loseNextAnswer(): void {
    this.loseAnswers += 1;
  }

  restart(): void {
    this.cache.clear();
  }

  tombstone(stream: string): void {
    const entry = this.streams.get(stream) ?? { events: [], tombstoned: false };
    entry.tombstoned = true;
    this.streams.set(stream, entry);
  }

  events(stream: string): RecordedEvent[] {
    return [...(this.streams.get(stream)?.events ?? [])];
  }

  async readTail(stream: string, count: number): Promise<RecordedEvent[]> {
    const entry = this.streams.get(stream);
    if (entry?.tombstoned) throw new StreamDeletedError(stream);
    return (entry?.events ?? []).slice(-count);
  }

  async readFrom(stream: string, from: bigint, count: number): Promise<RecordedEvent[]> {
    const entry = this.streams.get(stream);
    if (!entry || entry.tombstoned) return [];
    return entry.events.filter((event) => event.revision >= from).slice(0, count);
  }

  async write(stream: string, events: readonly NewEvent[], expected: AppendExpectedRevision): Promise<EsdbAppendResult> {
    for (const action of this.pendingBeforeWrite.splice(0)) await action();
    this.writes.push({ stream, ids: events.map((event) => event.id), expected });
    const result = this.apply(stream, events, expected);
    if (this.loseAnswers > 0 && result.success) {
      this.loseAnswers -= 1;
      throw grpcFailure(status.UNAVAILABLE, 'Connection dropped');
    }
    return result;
  }

  private apply(stream: string, events: readonly NewEvent[], expected: AppendExpectedRevision): EsdbAppendResult {
    const entry = this.streams.get(stream) ?? { events: [], tombstoned: false };
    if (entry.tombstoned) throw EsdbStreamDeletedError.fromStreamName(stream);
    const current = entry.events.at(-1)?.revision ?? -1n;
    const conflict = () => this.conflict(stream, expected, current);

    if (expected === ANY || expected === STREAM_EXISTS) {
      if (expected === STREAM_EXISTS && current < 0n) return conflict();
      const cached = this.cache.get(events[0]!.id);
      if (cached?.stream === stream) {
        const all = events.every((event, index) => {
          const hit = this.cache.get(event.id);
          return hit?.stream === stream && hit.revision === cached.revision + BigInt(index);
        });
        return all ? this.idempotent(cached.revision + BigInt(events.length - 1)) : conflict();
      }
      return this.append(stream, entry, events);
    }

    const from = expected === NO_STREAM ? -1n : (expected as bigint);
    if (from < current) {
      const stored = events.every((event, index) => entry.events[Number(from) + 1 + index]?.id === event.id);
      return stored ? this.idempotent(from + BigInt(events.length)) : conflict();
    }
    if (from > current) return conflict();
    return this.append(stream, entry, events);
  }

  private append(stream: string, entry: { events: RecordedEvent[]; tombstoned: boolean }, events: readonly NewEvent[]): EsdbAppendResult {
    this.streams.set(stream, entry);
    const start = this.logPosition;
    for (const event of events) {
      const revision = BigInt(entry.events.length);
      entry.events.push({
        id: event.id,
        streamId: stream,
        revision,
        position: { commit: start, prepare: this.logPosition },
        type: event.type,
        data: event.data,
        metadata: event.metadata ?? {},
        created: new Date(),
      });
      this.cache.set(event.id, { stream, revision });
      this.logPosition += 100n;
    }
    return { success: true, nextExpectedRevision: entry.events.at(-1)!.revision, position: { commit: start, prepare: start } };
  }

  private idempotent(lastRevision: bigint): EsdbAppendResult {
    return { success: true, nextExpectedRevision: lastRevision, position: undefined };
  }

  /** As the client reports a conflict: its error (append path constructor), or with throwOnAppendFailure=false
   * the batch path's result, whose revision is BigInt(hasCurrentStreamRevision()). */
  private conflict(stream: string, expected: AppendExpectedRevision, current: bigint): EsdbAppendResult {
    if (!this.throwOnAppendFailure) return { success: false, nextExpectedRevision: current >= 0n ? 1n : -1n, position: undefined };
    throw new EsdbWrongExpectedVersionError(undefined, { streamName: stream, expected, current: current >= 0n ? current : NO_STREAM });
  }
}

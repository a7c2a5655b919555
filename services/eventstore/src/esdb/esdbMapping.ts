import {
  ANY,
  jsonEvent,
  NO_STREAM,
  STREAM_EXISTS,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type AppendResult as EsdbAppendResult,
  type EventData,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { EventMetadata, ExpectedRevision, NewEvent, Position, RecordedEvent } from '../eventStore';
import { EsdbMappingError } from './esdbErrors';

/** The port's expected revision in the client's terms (never -1n, which the client cannot serialise). */
export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (typeof expected === 'bigint') {
    if (expected < 0n) throw new RangeError(`An expected revision is 0 or more (use 'no_stream' for none), got ${expected}`);
    return expected;
  }
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'exists':
      return STREAM_EXISTS;
    default:
      throw new RangeError(`Unknown expected revision ${String(expected)}`);
  }
}

/**
 * What the adapter sends for the caller's expectation, given the stream's revision it has just read (undefined: no
 * stream). The server checks event ids only for 'no_stream' and for a revision below the stream's (and for 'any'
 * and 'exists' only in a cache); the adapter checks the ids in the stream's tail itself (esdbAppend.ts) and sends
 * 'any' and 'exists' as the revision it read, so that nothing, a concurrent copy of the same append included, can
 * slip in between its check and the write. `retryOnConflict`: a conflict then only means that another writer got
 * in first, not that the caller's expectation failed; the adapter checks the tail again and retries.
 */
export function serverExpectation(
  expected: ExpectedRevision,
  current: bigint | undefined,
): { readonly send: AppendExpectedRevision; readonly retryOnConflict: boolean } {
  if ((expected === 'any' || expected === 'exists') && current !== undefined) return { send: current, retryOnConflict: true };
  if (expected === 'any') return { send: NO_STREAM, retryOnConflict: true };
  return { send: toEsdbExpectedRevision(expected), retryOnConflict: false };
}

/** The client's append result, classified. */
export type EsdbAppendOutcome =
  | { readonly kind: 'appended'; readonly nextExpectedRevision: bigint; readonly position: Position | undefined }
  | { readonly kind: 'conflict' };

/**
 * With `throwOnAppendFailure=false` in the connection string the client resolves a conflict with `success: false`
 * (and, on its batch-append path, a wrong revision: `BigInt(hasCurrentStreamRevision())`, i.e. 1n): a conflict,
 * whose actual revision must be read. A success without a usable position is the server's answer to a retry it
 * recognised itself (no position, or 2^64-1).
 */
export function appendOutcome(result: EsdbAppendResult): EsdbAppendOutcome {
  if (!result.success) return { kind: 'conflict' };
  return { kind: 'appended', nextExpectedRevision: result.nextExpectedRevision, position: knownPosition(result.position) };
}

/** Our event as an EventStoreDB JSON event; its id is the EventStoreDB event id (idempotent retries). */
export function toEsdbEvent(event: NewEvent): EventData {
  return jsonEvent({ id: event.id, type: event.type, data: event.data, metadata: { ...event.metadata } });
}

/** System events ($-prefixed types, such as stream metadata, tombstones and links, or $-prefixed streams) are not ours. */
export function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

/** What the server sends for "no position" (-1 as an unsigned 64-bit number); the client passes it on as is. */
const NO_POSITION = 2n ** 64n - 1n;

/** A position the server really gave, or undefined. */
export function knownPosition(position: { commit: bigint; prepare: bigint } | undefined): Position | undefined {
  if (!position || position.commit === NO_POSITION || position.prepare === NO_POSITION) return undefined;
  return { commit: position.commit, prepare: position.prepare };
}

function asObject(value: unknown): Record<string, unknown> {
  if (value instanceof Uint8Array) {
    try {
      return asObject(JSON.parse(Buffer.from(value).toString('utf8')));
    } catch {
      return {};
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * A read or delivered event in the port's shape; undefined for an unresolved link. The client always fills the
 * record's position (the server's "none" arrives as 2^64-1); without one, a $all read's commit position stands in
 * for both parts; without that either (a stream read on a server older than 22.6) the event cannot be placed.
 */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event) return undefined;
  const commit = resolved.commitPosition;
  const position = knownPosition(event.position) ?? (commit === undefined ? undefined : knownPosition({ commit, prepare: commit }));
  if (!position) throw new EsdbMappingError(`EventStoreDB returned event ${event.id} of ${event.streamId} without a position (server older than 22.6?)`);
  return {
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    position,
    type: event.type,
    data: asObject(event.data),
    metadata: asObject(event.metadata) as EventMetadata,
    created: event.created,
  };
}

/** The 6.2.1 client parses esdb:// and esdb+discover:// only; the successor's kurrentdb(+discover):// map onto them. */
export function toEsdbConnectionString(url: string): string {
  return url.replace(/^kurrentdb(\+discover)?:\/\//, (_, discover: string | undefined) => `esdb${discover ?? ''}://`);
}

import {
  ANY,
  ErrorType,
  isCommandError,
  jsonEvent,
  NO_STREAM,
  STREAM_EXISTS,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type EventData,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { WrongExpectedVersionError } from '../errors';
import type { EventMetadata, ExpectedRevision, NewEvent, Position, RecordedEvent } from '../eventStore';

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

/** Our event as an EventStoreDB JSON event; its id is the EventStoreDB event id (idempotent retries). */
export function toEsdbEvent(event: NewEvent): EventData {
  return jsonEvent({ id: event.id, type: event.type, data: event.data, metadata: { ...event.metadata } });
}

/** The client's wrong-expected-version error as ours; any other error unchanged. */
export function toPortError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
  if (error instanceof Error && isCommandError(error) && error.type === ErrorType.WRONG_EXPECTED_VERSION) {
    const actual = typeof error.actualVersion === 'bigint' ? error.actualVersion : undefined;
    return new WrongExpectedVersionError(streamId, expected, actual);
  }
  return error;
}

export function isStreamNotFound(error: unknown): boolean {
  return error instanceof Error && isCommandError(error) && error.type === ErrorType.STREAM_NOT_FOUND;
}

/** System events ($-prefixed types, such as stream metadata and links, or $-prefixed streams) are not ours. */
export function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
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

/** A read or delivered event in the port's shape; undefined for an unresolved link. */
export function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event) return undefined;
  const position: Position | undefined =
    event.position ?? (resolved.commitPosition === undefined ? undefined : { commit: resolved.commitPosition, prepare: resolved.commitPosition });
  if (!position) throw new Error(`EventStoreDB returned event ${event.id} without a position (server older than 22.6?)`);
  return {
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    position: { commit: position.commit, prepare: position.prepare },
    type: event.type,
    data: asObject(event.data),
    metadata: asObject(event.metadata) as EventMetadata,
    created: event.created,
  };
}

/** The client accepts esdb:// (and esdb+discover://); the config also allows the successor's kurrentdb:// scheme. */
export function toEsdbConnectionString(url: string): string {
  return url.replace(/^kurrentdb(\+discover)?:\/\//, (_, discover: string | undefined) => `esdb${discover ?? ''}://`);
}

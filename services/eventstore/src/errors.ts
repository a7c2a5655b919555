import type { ExpectedRevision } from './eventStore';

/** The stream's revision did not match the expected one. Command handlers re-read and retry on it. */
export class WrongExpectedVersionError extends Error {
  override readonly name = 'WrongExpectedVersionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual revision, undefined when the stream has no events. */
    readonly actual: bigint | undefined,
  ) {
    super(
      `Wrong expected version on stream ${streamId}: expected ${String(expected)}, actual ${actual === undefined ? 'no stream' : String(actual)}`,
    );
  }
}

export function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return error instanceof WrongExpectedVersionError;
}

/**
 * The stream was deleted for good (an operator's tombstone) and can never be written again. Not a conflict:
 * re-reading and retrying cannot succeed, so command handlers must not retry on it.
 */
export class StreamDeletedError extends Error {
  override readonly name = 'StreamDeletedError';
  constructor(readonly streamId: string) {
    super(`Stream ${streamId} is deleted and cannot be written again`);
  }
}

export function isStreamDeleted(error: unknown): error is StreamDeletedError {
  return error instanceof StreamDeletedError;
}

/** A call on an event store after its close(). */
export class EventStoreClosedError extends Error {
  override readonly name = 'EventStoreClosedError';
  constructor() {
    super('The event store is closed');
  }
}

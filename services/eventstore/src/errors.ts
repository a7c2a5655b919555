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

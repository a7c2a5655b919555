import { ErrorType, isCommandError } from '@eventstore/db-client';
import { StreamDeletedError, WrongExpectedVersionError } from '../errors';
import type { ExpectedRevision } from '../eventStore';

/** An event as the server sent it that the port cannot represent (no position: a server older than 22.6). */
export class EsdbMappingError extends Error {
  override readonly name = 'EsdbMappingError';
}

type CommandError = Error & { type: ErrorType; code?: number };

function commandError(error: unknown): CommandError | undefined {
  return error instanceof Error && isCommandError(error) ? (error as CommandError) : undefined;
}

export function isEsdbWrongExpectedVersion(error: unknown): boolean {
  return commandError(error)?.type === ErrorType.WRONG_EXPECTED_VERSION;
}

export function isStreamNotFound(error: unknown): boolean {
  return commandError(error)?.type === ErrorType.STREAM_NOT_FOUND;
}

/** A tombstoned stream: reads and appends both answer StreamDeleted. */
export function isEsdbStreamDeleted(error: unknown): boolean {
  return commandError(error)?.type === ErrorType.STREAM_DELETED;
}

/**
 * Reading $all from a position that is not a record boundary. The client has no class for it: servers from 23.10
 * answer INVALID_ARGUMENT "Trying to read from an invalid position.", older ones UNKNOWN "Unexpected ReadAllResult:
 * InvalidPosition"; both arrive as the client's UnknownError.
 */
export function isInvalidPosition(error: unknown): boolean {
  const failure = commandError(error);
  return failure?.type === ErrorType.UNKNOWN && /invalid\s?position/i.test(failure.message);
}

/**
 * Subscription errors that no resubscription can heal, so the subscription ends and reports through onError:
 * access denied (also bad credentials: the client maps UNAUTHENTICATED to AccessDeniedError), an invalid start
 * position, an argument or feature the server refuses, and events the adapter cannot map. Anything else (server
 * unavailable, leader change, deadline, cancelled or dropped stream) is retried with backoff.
 */
export function isUnrecoverableSubscriptionError(error: unknown): boolean {
  if (error instanceof EsdbMappingError) return true;
  const failure = commandError(error);
  if (!failure) return false;
  switch (failure.type) {
    case ErrorType.ACCESS_DENIED:
    case ErrorType.INVALID_ARGUMENT:
    case ErrorType.UNSUPPORTED:
      return true;
    default:
      return isInvalidPosition(failure);
  }
}

/** The client's append errors in the port's terms (any other error unchanged). */
export function toPortError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
  const failure = commandError(error);
  if (failure?.type === ErrorType.WRONG_EXPECTED_VERSION) {
    const actualVersion = (failure as CommandError & { actualVersion?: unknown }).actualVersion;
    return new WrongExpectedVersionError(streamId, expected, typeof actualVersion === 'bigint' ? actualVersion : undefined);
  }
  if (failure?.type === ErrorType.STREAM_DELETED) return new StreamDeletedError(streamId);
  return error;
}

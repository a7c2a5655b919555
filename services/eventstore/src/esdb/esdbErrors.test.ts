import {
  AccessDeniedError,
  CancelledError,
  DeadlineExceededError,
  InvalidArgumentError,
  NotLeaderError,
  NO_STREAM,
  STREAM_EXISTS,
  StreamDeletedError as EsdbStreamDeletedError,
  StreamNotFoundError,
  UnavailableError,
  UnknownError,
  UnsupportedError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
} from '@eventstore/db-client';
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { StreamDeletedError, WrongExpectedVersionError } from '../errors';
import {
  EsdbMappingError,
  isEsdbStreamDeleted,
  isEsdbWrongExpectedVersion,
  isInvalidPosition,
  isStreamNotFound,
  isUnrecoverableSubscriptionError,
  toPortError,
} from './esdbErrors';
import { grpcFailure } from './esdbServerModel';

// Each error as the client builds it: from the server's gRPC status and metadata through its convertToCommandError,
// or with the constructor its append paths use.
const accessDenied = () => grpcFailure(status.PERMISSION_DENIED, 'Access Denied', { exception: 'access-denied' });
const badCredentials = () => grpcFailure(status.UNAUTHENTICATED, 'Bad credentials');
const invalidPositionNow = () => grpcFailure(status.INVALID_ARGUMENT, 'Trying to read from an invalid position.');
const invalidPositionBefore23 = () => grpcFailure(status.UNKNOWN, 'Unexpected ReadAllResult: InvalidPosition');
const unavailable = () => grpcFailure(status.UNAVAILABLE, 'No connection established');
const deadline = () => grpcFailure(status.DEADLINE_EXCEEDED, 'Deadline exceeded');
const leaderChanged = () =>
  grpcFailure(status.NOT_FOUND, 'Leader info available', { exception: 'not-leader', 'leader-endpoint-host': '10.0.0.2', 'leader-endpoint-port': '2113' });
const somethingUnknown = () => grpcFailure(status.UNKNOWN, 'Unexpected WriteEventsResult: CommitTimeout');
const streamDeletedOnRead = () => grpcFailure(status.FAILED_PRECONDITION, "Event stream 's-1' is deleted.", { exception: 'stream-deleted', 'stream-name': 's-1' });
const wrongVersionOnAppend = () =>
  grpcFailure(status.FAILED_PRECONDITION, 'Append failed due to WrongExpectedVersion', {
    exception: 'wrong-expected-version',
    'stream-name': 's-1',
    'expected-version': '3',
    'actual-version': '5',
  });

describe('the errors of these tests', () => {
  it('are the classes the client gives for those server answers', () => {
    expect(accessDenied()).toBeInstanceOf(AccessDeniedError);
    expect(badCredentials()).toBeInstanceOf(AccessDeniedError);
    expect(invalidPositionNow()).toBeInstanceOf(UnknownError);
    expect(invalidPositionBefore23()).toBeInstanceOf(UnknownError);
    expect(unavailable()).toBeInstanceOf(UnavailableError);
    expect(deadline()).toBeInstanceOf(DeadlineExceededError);
    expect(leaderChanged()).toBeInstanceOf(NotLeaderError);
    expect(grpcFailure(status.CANCELLED, 'Cancelled on server')).toBeInstanceOf(CancelledError);
    expect(streamDeletedOnRead()).toBeInstanceOf(EsdbStreamDeletedError);
    expect(wrongVersionOnAppend()).toBeInstanceOf(EsdbWrongExpectedVersionError);
  });
});

describe('toPortError', () => {
  it('turns the client wrong-expected-version error into ours with the actual revision', () => {
    const error = new EsdbWrongExpectedVersionError(undefined, { streamName: 's-1', expected: 3n, current: 5n });
    const mapped = toPortError(error, 's-1', 3n);
    expect(mapped).toBeInstanceOf(WrongExpectedVersionError);
    expect(mapped).toMatchObject({ streamId: 's-1', expected: 3n, actual: 5n });
    expect(toPortError(wrongVersionOnAppend(), 's-1', 3n)).toMatchObject({ streamId: 's-1', expected: 3n, actual: 5n });
  });

  it('reports no actual revision when the stream does not exist', () => {
    const error = new EsdbWrongExpectedVersionError(undefined, { streamName: 's-1', expected: STREAM_EXISTS, current: NO_STREAM });
    expect(toPortError(error, 's-1', 'exists')).toMatchObject({ actual: undefined });
  });

  it("turns the client's stream-deleted error (batch append and gRPC status alike) into ours", () => {
    for (const error of [EsdbStreamDeletedError.fromStreamName('s-1'), streamDeletedOnRead()]) {
      const mapped = toPortError(error, 's-1', 'any');
      expect(mapped).toBeInstanceOf(StreamDeletedError);
      expect(mapped).toMatchObject({ streamId: 's-1' });
    }
  });

  it('leaves other errors alone', () => {
    const error = new Error('boom');
    expect(toPortError(error, 's-1', 'any')).toBe(error);
    const down = unavailable();
    expect(toPortError(down, 's-1', 'any')).toBe(down);
  });
});

describe('error classification', () => {
  it('recognises the client errors it maps', () => {
    expect(isEsdbWrongExpectedVersion(wrongVersionOnAppend())).toBe(true);
    expect(isEsdbWrongExpectedVersion(new Error('wrong-expected-version'))).toBe(false);
    expect(isStreamNotFound(new StreamNotFoundError(undefined, 's-1'))).toBe(true);
    expect(isStreamNotFound(grpcFailure(status.NOT_FOUND, "Event stream 's-1' is not found.", { exception: 'stream-not-found', 'stream-name': 's-1' }))).toBe(true);
    expect(isEsdbStreamDeleted(streamDeletedOnRead())).toBe(true);
    expect(isEsdbStreamDeleted(EsdbStreamDeletedError.fromStreamName('s-1'))).toBe(true);
    expect(isEsdbStreamDeleted(new StreamDeletedError('s-1'))).toBe(false);
  });

  it('recognises an invalid read position from servers before and after 23.10, and nothing else', () => {
    expect(isInvalidPosition(invalidPositionNow())).toBe(true);
    expect(isInvalidPosition(invalidPositionBefore23())).toBe(true);
    expect(isInvalidPosition(somethingUnknown())).toBe(false);
    expect(isInvalidPosition(grpcFailure(status.INVALID_ARGUMENT, "'x' is not a valid System.String"))).toBe(false);
    expect(isInvalidPosition(new Error('Trying to read from an invalid position.'))).toBe(false);
  });
});

describe('isUnrecoverableSubscriptionError', () => {
  it('ends the subscription on what no resubscription heals', () => {
    for (const error of [
      accessDenied(),
      badCredentials(),
      new AccessDeniedError(),
      invalidPositionNow(),
      invalidPositionBefore23(),
      new InvalidArgumentError('fromPosition'),
      new UnsupportedError('filtered subscriptions', '21.10'),
      new EsdbMappingError('event without a position'),
    ]) {
      expect(isUnrecoverableSubscriptionError(error), error.message).toBe(true);
    }
  });

  it('retries dropped connections, leader changes, deadlines and unknown server errors', () => {
    for (const error of [unavailable(), deadline(), leaderChanged(), somethingUnknown(), grpcFailure(status.CANCELLED, 'Cancelled on server'), new Error('EventStoreDB ended the subscription')]) {
      expect(isUnrecoverableSubscriptionError(error), error.message).toBe(false);
    }
  });
});

import { StreamNotFoundError } from '@eventstore/db-client';
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { StreamDeletedError } from '../errors';
import { clientOverStream, recordAt } from './esdbClientFakes';
import { grpcFailure } from './esdbServerModel';
import { readStreamEvents, readStreamTail } from './esdbStreamReads';

const tombstoned = () => grpcFailure(status.FAILED_PRECONDITION, "Event stream 'account-1' is deleted.", { exception: 'stream-deleted', 'stream-name': 'account-1' });
const missing = () => new StreamNotFoundError(undefined, 'account-1');
const records = [0n, 1n, 2n].map((revision) => recordAt(100n + revision, { revision }));

describe('readStreamEvents', () => {
  it('reads a tombstoned stream, like a missing one, as no events', async () => {
    await expect(readStreamEvents(clientOverStream([], tombstoned()).client, 'account-1', 0n, 10)).resolves.toEqual([]);
    await expect(readStreamEvents(clientOverStream([], missing()).client, 'account-1', 0n, 10)).resolves.toEqual([]);
  });

  it('passes other failures on', async () => {
    const down = grpcFailure(status.UNAVAILABLE, 'No connection established');
    await expect(readStreamEvents(clientOverStream([], down).client, 'account-1', 0n, 10)).rejects.toBe(down);
  });
});

describe('readStreamTail', () => {
  it('reads the last events backwards from the end and returns them oldest first', async () => {
    const { client, requests } = clientOverStream(records);

    const tail = await readStreamTail(client, 'account-1', 2);

    expect(tail.map((event) => event.revision)).toEqual([1n, 2n]);
    expect(requests).toEqual([{ fromRevision: 'end', maxCount: 2, direction: 'backwards' }]);
  });

  it('refuses a tombstoned stream with our StreamDeletedError (an append to it can never succeed)', async () => {
    const failure = await readStreamTail(clientOverStream([], tombstoned()).client, 'account-1', 2).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StreamDeletedError);
    expect(failure).toMatchObject({ streamId: 'account-1' });
    await expect(readStreamTail(clientOverStream([], missing()).client, 'account-1', 2)).resolves.toEqual([]);
  });
});

import type { EventStoreDBClient } from '@eventstore/db-client';
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { fakeRead, recordAt } from './esdbClientFakes';
import { resolveEsdbPositionToken } from './esdbPositionToken';
import { grpcFailure } from './esdbServerModel';

function clientReading(read: ReturnType<typeof fakeRead>) {
  const requests: unknown[] = [];
  const client = {
    readAll: (options: unknown) => {
      requests.push(options);
      return read;
    },
  } as unknown as Pick<EventStoreDBClient, 'readAll'>;
  return { client, requests };
}

describe('resolveEsdbPositionToken', () => {
  it('resolves to the last event of ours with that commit position, skipping system events', async () => {
    const first = recordAt(500n, { prepare: 500n });
    const second = recordAt(500n, { prepare: 620n });
    const marker = recordAt(500n, { prepare: 700n, streamId: '$$account-1', type: '$metadata' });
    const { client, requests } = clientReading(fakeRead([first, second, marker, recordAt(900n)]));

    await expect(resolveEsdbPositionToken(client, '500')).resolves.toEqual({ commit: 500n, prepare: 620n });
    expect(requests).toEqual([{ fromPosition: { commit: 500n, prepare: 500n }, maxCount: 100 }]);
  });

  it('resolves to undefined when the log has no event at that commit position', async () => {
    const { client } = clientReading(fakeRead([recordAt(900n)]));
    await expect(resolveEsdbPositionToken(client, '501')).resolves.toBeUndefined();
  });

  it('resolves a token inside a record (the server answers InvalidPosition) to undefined, before and after 23.10', async () => {
    for (const failure of [
      grpcFailure(status.INVALID_ARGUMENT, 'Trying to read from an invalid position.'),
      grpcFailure(status.UNKNOWN, 'Unexpected ReadAllResult: InvalidPosition'),
    ]) {
      const { client } = clientReading(fakeRead([], failure));
      await expect(resolveEsdbPositionToken(client, '501')).resolves.toBeUndefined();
    }
  });

  it('passes other failures on (a 503, not a silently stale read)', async () => {
    const down = grpcFailure(status.UNAVAILABLE, 'No connection established');
    const { client } = clientReading(fakeRead([], down));
    await expect(resolveEsdbPositionToken(client, '501')).rejects.toBe(down);
  });

  it('answers tokens that are no position without asking the server', async () => {
    const { client, requests } = clientReading(fakeRead([recordAt(0n)]));
    for (const token of ['', '-1', 'abc', '1.5', '9223372036854775808', '99999999999999999999']) {
      await expect(resolveEsdbPositionToken(client, token), token).resolves.toBeUndefined();
    }
    expect(requests).toEqual([]);
  });
});

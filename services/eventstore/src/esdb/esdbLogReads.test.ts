import { describe, expect, it } from 'vitest';
import { clientOverLog, recordAt } from './esdbClientFakes';
import { logHeadPosition, MIN_LOG_PAGE, readLog } from './esdbLogReads';

const ours = (commit: bigint) => recordAt(commit, { prepare: commit, streamId: 'account-1' });
const stats = (commit: bigint) => recordAt(commit, { prepare: commit, streamId: '$stats-127.0.0.1:2113', type: '$statsCollected' });

describe('logHeadPosition', () => {
  it('reads past a tail of system events in pages, not one round trip per skipped record', async () => {
    const log = [ours(100n), ours(200n), ...Array.from({ length: 100 }, (_, index) => stats(1000n + BigInt(index) * 10n))];
    const { client, requests } = clientOverLog(log);

    await expect(logHeadPosition(client)).resolves.toEqual({ commit: 200n, prepare: 200n });
    expect(requests.map((request) => request.maxCount)).toEqual([MIN_LOG_PAGE, MIN_LOG_PAGE]);
  });

  it('reports no head for a log of system events only', async () => {
    const { client } = clientOverLog([stats(10n), stats(20n)]);
    await expect(logHeadPosition(client)).resolves.toBeUndefined();
  });
});

describe('readLog', () => {
  it('returns the events after the cursor (exclusive), skipping system events, at most limit, across pages', async () => {
    const log = [ours(100n), ...Array.from({ length: 70 }, (_, index) => stats(200n + BigInt(index))), ours(300n), ours(400n), ours(500n)];
    const { client, requests } = clientOverLog(log);

    const events = await readLog(client, { commit: 100n, prepare: 100n }, 2, false);

    expect(events.map((event) => event.position.commit)).toEqual([300n, 400n]);
    expect(requests[0]).toMatchObject({ fromPosition: { commit: 100n, prepare: 100n }, direction: 'forwards' });
    expect(requests).toHaveLength(2);
  });

  it('stops at the end of the log', async () => {
    const { client } = clientOverLog([ours(100n), ours(200n)]);
    await expect(readLog(client, undefined, 1000, false)).resolves.toHaveLength(2);
  });
});

import { describe, expect, it } from 'vitest';
import type { Position, ReadAllOptions, RecordedEvent } from '../eventStore';
import { silentLogger } from '../eventStoreLogger';
import { startSubscription } from '../startSubscription';
import type { NotificationListener } from './notificationListener';
import { postgresSubscriptionLoop } from './postgresSubscriptionLoop';

function recorded(prepare: number): RecordedEvent {
  return {
    id: `e${prepare}`,
    streamId: 's',
    revision: BigInt(prepare - 1),
    position: { commit: 1n, prepare: BigInt(prepare) },
    type: 'T',
    data: {},
    metadata: {},
    created: new Date(0),
  };
}

/** A log of `count` events whose readAll fails on the calls listed in `failOn` (1-based). */
function flakyLog(count: number, failOn: number[]) {
  const log = Array.from({ length: count }, (_, index) => recorded(index + 1));
  let calls = 0;
  return async ({ after, limit = 1000 }: ReadAllOptions): Promise<RecordedEvent[]> => {
    calls += 1;
    if (failOn.includes(calls)) throw new Error(`read ${calls} failed`);
    const from = after ? log.findIndex((event) => event.position.prepare > (after as Position).prepare) : 0;
    return from < 0 ? [] : log.slice(from, from + limit);
  };
}

const quietListener: NotificationListener = { register: () => () => undefined, close: async () => undefined };

describe('postgresSubscriptionLoop', () => {
  it('retries a failed read and still delivers every event once, in order', async () => {
    const delivered: string[] = [];
    let caughtUp!: () => void;
    const caughtUpSignal = new Promise<void>((resolve) => {
      caughtUp = resolve;
    });
    const subscription = startSubscription({ handler: (event) => void delivered.push(event.id), reportError: () => undefined }, (control) =>
      postgresSubscriptionLoop(
        control,
        { readAll: flakyLog(7, [1, 3]), listener: quietListener, pollIntervalMs: 10, batchSize: 3, logger: silentLogger },
        { onCaughtUp: caughtUp },
      ),
    );

    await caughtUpSignal;
    await subscription.stop();

    expect(delivered).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7']);
  });
});

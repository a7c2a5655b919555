import { describe, expect, it } from 'vitest';
import type { Position, RecordedEvent } from '../eventStore';
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

/** A log of `count` events whose read fails on the calls listed in `failOn` (1-based). */
function flakyLog(count: number, failOn: number[]) {
  const log = Array.from({ length: count }, (_, index) => recorded(index + 1));
  let calls = 0;
  return async (after: Position | undefined, limit: number) => {
    calls += 1;
    if (failOn.includes(calls)) throw new Error(`read ${calls} failed`);
    const from = after ? log.findIndex((event) => event.position.prepare > after.prepare) : 0;
    return { events: from < 0 ? [] : log.slice(from, from + limit), heldBack: false };
  };
}

/** A log of events of the given types, read as the store's query reads it: filtered by type, with the head. */
function typedLog(types: readonly string[]) {
  const log = types.map((type, index) => ({ ...recorded(index + 1), type }));
  const reads: Array<Position | undefined> = [];
  const read = async (after: Position | undefined, limit: number, wanted?: readonly string[]) => {
    reads.push(after);
    const rest = log.filter((event) => (!after || event.position.prepare > after.prepare) && (!wanted || wanted.includes(event.type)));
    return { events: rest.slice(0, limit), heldBack: false, head: log[log.length - 1]!.position };
  };
  return { read, reads };
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
        { read: flakyLog(7, [1, 3]), listener: quietListener, pollIntervalMs: 10, batchSize: 3, logger: silentLogger },
        { onCaughtUp: caughtUp },
      ),
    );

    await caughtUpSignal;
    await subscription.stop();

    expect(delivered).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7']);
  });

  it('reads again soon while committed events are held back, without a second notification or the poll', async () => {
    const event = recorded(1);
    let reads = 0;
    let notifiedAt = Infinity;
    // Before the notification the log is empty; after it the event is committed but held back for two reads (an
    // older transaction still open), then readable.
    const read = async (after: Position | undefined) => {
      reads += 1;
      if (after || reads < notifiedAt) return { events: [], heldBack: false };
      if (reads < notifiedAt + 2) return { events: [], heldBack: true };
      return { events: [event], heldBack: false };
    };
    let wake: () => void = () => undefined;
    const listener: NotificationListener = {
      register: (onNotify) => {
        wake = onNotify;
        return () => undefined;
      },
      close: async () => undefined,
    };
    let received!: () => void;
    const receivedSignal = new Promise<void>((resolve) => {
      received = resolve;
    });
    let caughtUp!: () => void;
    const caughtUpSignal = new Promise<void>((resolve) => {
      caughtUp = resolve;
    });
    // A poll interval far longer than the test's timeout: only the held-back retry can deliver the event.
    const subscription = startSubscription({ handler: () => received(), reportError: () => undefined }, (control) =>
      postgresSubscriptionLoop(control, { read, listener, pollIntervalMs: 600_000, batchSize: 10, logger: silentLogger }, { onCaughtUp: caughtUp }),
    );
    await caughtUpSignal;
    notifiedAt = reads + 1;
    wake();
    await receivedSignal;
    await subscription.stop();

    expect(reads).toBeGreaterThanOrEqual(notifiedAt + 2);
  });

  it('with event types, delivers those alone, then goes on from the head and reports it as progress', async () => {
    const { read, reads } = typedLog(['Other', 'Wanted', 'Other', 'Other', 'Other', 'Other', 'Other', 'Wanted', 'Other', 'Other']);
    const delivered: string[] = [];
    const progress: bigint[] = [];
    let caughtUp!: () => void;
    const caughtUpSignal = new Promise<void>((resolve) => {
      caughtUp = resolve;
    });
    const subscription = startSubscription({ handler: (event) => void delivered.push(event.id), reportError: () => undefined }, (control) =>
      postgresSubscriptionLoop(
        control,
        { read, listener: quietListener, pollIntervalMs: 5, batchSize: 3, logger: silentLogger },
        { eventTypes: ['Wanted'], onCaughtUp: caughtUp, onProgress: (position) => void progress.push(position.prepare) },
      ),
    );

    await caughtUpSignal;
    while (reads.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await subscription.stop();

    expect(delivered).toEqual(['e2', 'e8']);
    expect(progress).toEqual([10n]);
    expect(reads[0]).toBeUndefined();
    expect(reads.slice(1).map((after) => after?.prepare)).toEqual(reads.slice(1).map(() => 10n));
  });
});

import { Readable } from 'node:stream';
import type { AllStreamResolvedEvent, AllStreamSubscription, EventStoreDBClient } from '@eventstore/db-client';

/**
 * Test support (not exported): stand-ins for the client's read and subscription streams (Node Readables in object
 * mode, as the client's are), fed with records shaped as the client converts them, or failing with the client's
 * errors. They replace the server, not the adapter's mapping of what the client gives.
 */

let nextPrepare = 1000n;

/** A $all record as the client converts it. */
export function recordAt(commit: bigint, options: { prepare?: bigint; streamId?: string; type?: string; revision?: bigint } = {}): AllStreamResolvedEvent {
  const prepare = options.prepare ?? (nextPrepare += 10n);
  return {
    event: {
      streamId: options.streamId ?? 'account-1',
      id: `00000000-0000-4000-8000-${prepare.toString().padStart(12, '0')}`,
      revision: options.revision ?? 0n,
      type: options.type ?? 'Deposited',
      data: {},
      metadata: undefined,
      isJson: true,
      created: new Date('2025-01-01T00:00:00Z'),
      position: { commit, prepare },
    },
    commitPosition: commit,
  } as AllStreamResolvedEvent;
}

/** A read of $all that yields `records`, then fails with `failure` if given. */
export function fakeRead(records: readonly AllStreamResolvedEvent[], failure?: Error) {
  const stream = Readable.from(
    (async function* () {
      yield* records;
      if (failure) throw failure;
    })(),
  );
  return Object.assign(stream, { cancel: async () => undefined });
}

/**
 * A subscription that delivers `records` and then fails with `failure` (once they have been read: a failing stream
 * drops what it still buffers), or stays open until destroyed.
 */
export function fakeSubscription(records: readonly AllStreamResolvedEvent[], failure?: Error): AllStreamSubscription {
  const stream = new Readable({ objectMode: true, read: () => undefined });
  setImmediate(() => {
    for (const record of records) stream.push(record);
    if (!failure) return;
    const failWhenDrained = () => (stream.readableLength === 0 ? stream.destroy(failure) : setTimeout(failWhenDrained, 5));
    setTimeout(failWhenDrained, 5);
  });
  return Object.assign(stream, { unsubscribe: async () => undefined }) as unknown as AllStreamSubscription;
}

/** A client whose subscribeToAll hands out the given subscriptions in turn (the last one again when they run out). */
export function clientWithSubscriptions(subscriptions: Array<() => AllStreamSubscription>) {
  const calls: unknown[] = [];
  const client = {
    subscribeToAll(options: unknown) {
      calls.push(options);
      return subscriptions[Math.min(calls.length, subscriptions.length) - 1]!();
    },
  } as unknown as EventStoreDBClient;
  return { client, calls };
}

interface ReadOptions {
  fromPosition?: 'start' | 'end' | { commit: bigint; prepare: bigint };
  fromRevision?: 'start' | 'end' | bigint;
  maxCount?: number | bigint;
  direction?: 'forwards' | 'backwards';
}

const compare = (a: { commit: bigint; prepare: bigint }, b: { commit: bigint; prepare: bigint }) =>
  a.commit === b.commit ? Number(a.prepare - b.prepare) : Number(a.commit - b.commit);

/** A client whose readAll serves `log` as the server serves $all: inclusive start position, direction, maxCount. */
export function clientOverLog(log: readonly AllStreamResolvedEvent[]) {
  const requests: ReadOptions[] = [];
  const client = {
    readAll(options: ReadOptions = {}) {
      requests.push(options);
      const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
      const from = options.fromPosition ?? 'start';
      const at = (record: AllStreamResolvedEvent) => record.event!.position!;
      const page =
        options.direction === 'backwards'
          ? [...log].reverse().filter((record) => from === 'end' || from === 'start' || compare(at(record), from) <= 0)
          : log.filter((record) => from === 'start' || (from !== 'end' && compare(at(record), from) >= 0));
      return fakeRead(page.slice(0, max));
    },
  } as unknown as Pick<EventStoreDBClient, 'readAll'>;
  return { client, requests };
}

/** A client whose readStream serves one stream's `records` (oldest first), or fails with `failure`. */
export function clientOverStream(records: readonly AllStreamResolvedEvent[], failure?: Error) {
  const requests: ReadOptions[] = [];
  const client = {
    readStream(_stream: string, options: ReadOptions = {}) {
      requests.push(options);
      const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
      const ordered = options.direction === 'backwards' ? [...records].reverse() : [...records];
      return fakeRead(ordered.slice(0, max), failure);
    },
  } as unknown as Pick<EventStoreDBClient, 'readStream'>;
  return { client, requests };
}

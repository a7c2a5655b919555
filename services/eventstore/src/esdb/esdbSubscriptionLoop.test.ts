import type { AllStreamSubscription } from '@eventstore/db-client';
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import type { Position, RecordedEvent, SubscribeOptions } from '../eventStore';
import type { EventStoreLogger } from '../eventStoreLogger';
import { startSubscription } from '../startSubscription';
import { clientWithSubscriptions, fakeSubscription, recordAt } from './esdbClientFakes';
import { grpcFailure } from './esdbServerModel';
import { esdbSubscriptionLoop } from './esdbSubscriptionLoop';

function subscribe(
  client: ReturnType<typeof clientWithSubscriptions>['client'],
  options: SubscribeOptions = {},
  handle: (event: RecordedEvent) => Promise<void> | void = () => undefined,
) {
  const received: RecordedEvent[] = [];
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const errors: unknown[] = [];
  const warnings: object[] = [];
  const logger: EventStoreLogger = { warn: (details) => warnings.push(details), error: () => undefined };
  let current: AllStreamSubscription | undefined;
  const subscription = startSubscription(
    {
      handler: async (event) => {
        await handle(event);
        received.push(event);
        for (const waiter of waiting) if (received.length >= waiter.count) waiter.resolve();
      },
      onError: (error) => errors.push(error),
      onStop: () => void current?.destroy(), // as the store does: end the server subscription in use
      reportError: () => undefined,
    },
    (control) => esdbSubscriptionLoop(control, { client, logger, onOpen: (opened) => (current = opened) }, options),
  );
  /** Resolves once `count` events have been delivered. */
  const delivered = (count: number) => new Promise<void>((resolve) => waiting.push({ count, resolve }));
  return { subscription, received, delivered, errors, warnings };
}

describe('esdbSubscriptionLoop', () => {
  const unrecoverable = {
    'access denied (no read right on $all)': () => grpcFailure(status.PERMISSION_DENIED, 'Access Denied', { exception: 'access-denied' }),
    'bad credentials': () => grpcFailure(status.UNAUTHENTICATED, 'Bad credentials'),
    'an invalid start position': () => grpcFailure(status.INVALID_ARGUMENT, 'Trying to read from an invalid position.'),
  };

  for (const [label, failure] of Object.entries(unrecoverable)) {
    it(`ends and reports ${label} through onError instead of resubscribing`, async () => {
      const error = failure();
      const { client, calls } = clientWithSubscriptions([() => fakeSubscription([recordAt(10n)], error)]);
      const { subscription, received, errors, warnings } = subscribe(client);

      await subscription.done;

      expect(errors).toEqual([error]);
      expect(calls).toHaveLength(1);
      expect(received).toHaveLength(1);
      expect(warnings).toEqual([]);
    });
  }

  it('resubscribes after the last delivered event when the connection drops, and delivers each event once', async () => {
    const first = recordAt(10n);
    const second = recordAt(20n);
    const { client, calls } = clientWithSubscriptions([
      () => fakeSubscription([first], grpcFailure(status.UNAVAILABLE, 'Connection dropped')),
      () => fakeSubscription([second]),
    ]);
    const { subscription, received, delivered, errors, warnings } = subscribe(client);

    await delivered(2);
    await subscription.stop();

    expect(received.map((event) => event.position.commit)).toEqual([10n, 20n]);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ fromPosition: first.event!.position });
    expect(errors).toEqual([]);
    expect(warnings).toHaveLength(1);
  });

  it('asks the server for the given event types only, and for every non-system event without them', async () => {
    const { client, calls } = clientWithSubscriptions([() => fakeSubscription([])]);
    const opened = (count: number) => new Promise<void>((resolve) => void (function check() {
      if (calls.length >= count) resolve();
      else setTimeout(check, 1);
    })());
    const filtered = subscribe(client, { eventTypes: ['AccountDebited', 'Odd.Type'] });
    await opened(1);
    await filtered.subscription.stop();
    const everything = subscribe(client);
    await opened(2);
    await everything.subscription.stop();

    expect(calls[0]).toMatchObject({ filter: { filterOn: 'eventType', regex: '^(?:AccountDebited|Odd\\.Type)$' } });
    expect(calls[1]).toMatchObject({ filter: { filterOn: 'eventType', regex: '^[^$].*' } });
  });

  it("reports the server's checkpoint as progress only once the events buffered before it were handled", async () => {
    const { client, calls } = clientWithSubscriptions([() => fakeSubscription([recordAt(10n), recordAt(20n)])]);
    const progress: Array<{ position: Position; handled: number }> = [];
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { subscription, received, delivered } = subscribe(
      client,
      { eventTypes: ['Deposited'], onProgress: (position) => void progress.push({ position, handled: received.length }) },
      () => gate,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const filter = (calls[0] as { filter: { checkpointReached: (subscription: unknown, position: Position) => void } }).filter;
    filter.checkpointReached(undefined, { commit: 30n, prepare: 30n });
    expect(progress).toEqual([]);

    release();
    await delivered(2);
    await new Promise((resolve) => setTimeout(resolve, 0));
    filter.checkpointReached(undefined, { commit: 25n, prepare: 25n });
    await subscription.stop();

    expect(progress).toEqual([{ position: { commit: 30n, prepare: 30n }, handled: 2 }]);
  });
});

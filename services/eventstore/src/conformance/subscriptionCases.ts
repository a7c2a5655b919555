import { expect, it } from 'vitest';
import type { RecordedEvent, Subscription } from '../eventStore';
import { collect, deferred, newEvent, newEvents, outOfOrder, waitUntilVisible } from './conformanceHelpers';
import type { ConformanceContext } from './eventStoreConformance';

const idsOf = (events: readonly { id: string }[]) => events.map((event) => event.id);

export function subscriptionCases(context: ConformanceContext): void {
  it('delivers stored events, calls onCaughtUp once, then delivers new events live, in order', async () => {
    const start = await context.store.headPosition();
    const stream = context.streams.next('sub');
    const stored = newEvents(3, 'Stored');
    const { position } = await context.store.append(stream, stored, 'no_stream');
    await waitUntilVisible(context.store, position);

    const collector = collect(context.store, { prefix: stream, after: start });
    await collector.caughtUp;
    const live = newEvents(2, 'Live');
    await context.store.append(stream, live.slice(0, 1), 2n);
    await context.store.append(stream, live.slice(1), 3n);
    await collector.until((events) => events.length === 5);
    await collector.subscription.stop();

    expect(idsOf(collector.events)).toEqual(idsOf([...stored, ...live]));
    expect(collector.caughtUpCalls).toEqual([3]);
    expect(outOfOrder(collector.positions)).toEqual([]);
  });

  it('resumes after a checkpoint position with exactly the events that follow it', async () => {
    const stream = context.streams.next('resume');
    const events = newEvents(6);
    const { position } = await context.store.append(stream, events, 'no_stream');
    await waitUntilVisible(context.store, position);
    const checkpoint = (await context.store.readStream(stream))[2]!.position;

    const collector = collect(context.store, { prefix: stream, after: checkpoint });
    const sentinel = newEvent('Sentinel');
    await context.store.append(stream, [sentinel], 5n);
    await collector.until((received) => received.some((event) => event.id === sentinel.id));
    await collector.subscription.stop();

    expect(idsOf(collector.events)).toEqual(idsOf([...events.slice(3), sentinel]));
  });

  it('delivers nothing more once stop() has resolved', async () => {
    const stream = context.streams.next('stop');
    const start = await context.store.headPosition();
    await context.store.append(stream, newEvents(2), 'no_stream');
    const collector = collect(context.store, { prefix: stream, after: start });
    await collector.until((events) => events.length === 2);

    await collector.subscription.stop();
    await collector.subscription.done;
    const late = newEvent('Late');
    await context.store.append(stream, [late], 1n);
    const witness = collect(context.store, { prefix: stream, after: start });
    await witness.until((events) => events.some((event) => event.id === late.id));
    await witness.subscription.stop();

    expect(collector.events).toHaveLength(2);
  });

  it('waits for the handler in progress when stopped, and delivers no further event', async () => {
    const stream = context.streams.next('stop_busy');
    const start = await context.store.headPosition();
    await context.store.append(stream, newEvents(3), 'no_stream');
    const entered = deferred();
    const release = deferred();
    const collector = collect(context.store, {
      prefix: stream,
      after: start,
      handle: async (event) => {
        if (event.streamId !== stream) return;
        entered.resolve();
        await release.promise;
      },
    });
    await entered.promise;

    let stopped = false;
    const stopping = collector.subscription.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    const stoppedBeforeRelease = stopped;
    release.resolve();
    await stopping;

    expect(stoppedBeforeRelease).toBe(false);
    expect(collector.events).toHaveLength(1);
  });

  it('lets a handler stop its own subscription, after an await of its own, with the stop it is given', async () => {
    const stream = context.streams.next('stop_self');
    const start = await context.store.headPosition();
    await context.store.append(stream, newEvents(5), 'no_stream');
    const received: RecordedEvent[] = [];
    const subscription: Subscription = context.store.subscribe(
      async (event, self) => {
        if (event.streamId !== stream) return;
        received.push(event);
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (received.length === 2) self.stop();
      },
      { after: start },
    );

    await subscription.done;

    expect(received).toHaveLength(2);
  });

  it('stops and reports through onError when the handler throws', async () => {
    const stream = context.streams.next('failing');
    const start = await context.store.headPosition();
    await context.store.append(stream, newEvents(3), 'no_stream');
    const failure = new Error('handler failed');
    const errors: unknown[] = [];
    let calls = 0;
    const subscription = context.store.subscribe(
      (event) => {
        if (event.streamId !== stream) return;
        calls += 1;
        throw failure;
      },
      { after: start, onError: (error) => errors.push(error) },
    );

    await subscription.done;

    expect(errors).toEqual([failure]);
    expect(calls).toBe(1);
  });
}

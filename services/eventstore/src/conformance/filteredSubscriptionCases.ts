import { expect, it } from 'vitest';
import { comparePositions, type Position, type RecordedEvent } from '../eventStore';
import { newEvent, outOfOrder, waitUntilVisible } from './conformanceHelpers';
import type { ConformanceContext } from './eventStoreConformance';

/** A type name no other case (and no other run sharing the store) uses. */
function uniqueType(stream: string, label: string): string {
  return `${label}${stream.replace(/[^A-Za-z0-9]/g, '')}`;
}

export function filteredSubscriptionCases(context: ConformanceContext): void {
  it('delivers only the event types asked for, in order, stored and live', async () => {
    const start = await context.store.headPosition();
    const stream = context.streams.next('filtered');
    const [wanted, alsoWanted, other] = [uniqueType(stream, 'Wanted'), uniqueType(stream, 'AlsoWanted'), uniqueType(stream, 'Other')];
    const stored = [newEvent(other), newEvent(wanted), newEvent(other), newEvent(alsoWanted), newEvent(other)];
    const { position } = await context.store.append(stream, stored, 'no_stream');
    await waitUntilVisible(context.store, position);

    const received: RecordedEvent[] = [];
    let caughtUp = () => undefined as void;
    const caughtUpNow = new Promise<void>((resolve) => (caughtUp = resolve));
    const subscription = context.store.subscribe((event) => void received.push(event), {
      ...(start ? { after: start } : {}),
      eventTypes: [wanted, alsoWanted],
      onCaughtUp: () => caughtUp(),
    });
    await caughtUpNow;
    const live = [newEvent(other), newEvent(wanted)];
    await context.store.append(stream, live, 4n);
    for (let tries = 0; received.length < 3 && tries < 500; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await subscription.stop();

    expect(received.map((event) => event.id)).toEqual([stored[1]!.id, stored[3]!.id, live[1]!.id]);
    expect(received.every((event) => event.streamId === stream)).toBe(true);
    expect(outOfOrder(received.map((event) => event.position))).toEqual([]);
  });

  it('reports progress only forwards, and never past a wanted event not yet handled', async () => {
    const start = await context.store.headPosition();
    const stream = context.streams.next('progress');
    const [wanted, other] = [uniqueType(stream, 'Wanted'), uniqueType(stream, 'Other')];
    const events = [newEvent(wanted), ...Array.from({ length: 40 }, () => newEvent(other)), newEvent(wanted), newEvent(other)];
    const { position } = await context.store.append(stream, events, 'no_stream');
    await waitUntilVisible(context.store, position);
    const stored = await context.store.readStream(stream);

    const handled: RecordedEvent[] = [];
    const progress: Array<{ readonly position: Position; readonly handled: number }> = [];
    let caughtUp = () => undefined as void;
    const caughtUpNow = new Promise<void>((resolve) => (caughtUp = resolve));
    const subscription = context.store.subscribe(
      async (event) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        handled.push(event);
      },
      {
        ...(start ? { after: start } : {}),
        eventTypes: [wanted],
        onProgress: (at) => void progress.push({ position: at, handled: handled.length }),
        onCaughtUp: () => caughtUp(),
      },
    );
    await caughtUpNow;
    await subscription.stop();

    expect(handled.map((event) => event.id)).toEqual([stored[0]!.id, stored[41]!.id]);
    expect(outOfOrder(progress.map((report) => report.position))).toEqual([]);
    for (const report of progress) {
      const wantedUpTo = stored.filter((event) => event.type === wanted && comparePositions(event.position, report.position) <= 0).length;
      expect(report.handled).toBeGreaterThanOrEqual(wantedUpTo);
    }
  });
}

import { expect, it } from 'vitest';
import { comparePositions, type EventStore, type ExpectedRevision, type Position } from '../eventStore';
import { collect, newEvent, newEvents, outOfOrder, readAllPages, waitUntilVisible } from './conformanceHelpers';
import type { ConformanceContext } from './eventStoreConformance';

export interface ConcurrentWritersSettings {
  readonly writers: number;
  readonly eventsPerWriter: number;
  /** Upper bound of the random delay before each append commits (where the adapter can inject it). */
  readonly appendDelayMs: number;
  readonly streamsPerWriter: number;
}

const DEFAULTS: ConcurrentWritersSettings = { writers: 8, eventsPerWriter: 500, appendDelayMs: 10, streamsPerWriter: 3 };

/** One writer: appends `count` events in batches of 1–3 over its streams, each with its exact expected revision. */
async function write(store: EventStore, streams: readonly string[], count: number, appended: Map<string, string[]>): Promise<void> {
  const revisions = new Map<string, ExpectedRevision>();
  let written = 0;
  for (let batch = 0; written < count; batch += 1) {
    const stream = streams[batch % streams.length]!;
    const events = newEvents(Math.min(1 + (batch % 3), count - written), 'Written');
    const result = await store.append(stream, events, revisions.get(stream) ?? 'no_stream');
    revisions.set(stream, result.nextExpectedRevision);
    appended.set(stream, [...(appended.get(stream) ?? []), ...events.map((event) => event.id)]);
    written += events.length;
  }
}

export function concurrentWritersCases(context: ConformanceContext, overrides: Partial<ConcurrentWritersSettings> = {}): void {
  const settings = { ...DEFAULTS, ...overrides };

  it(`delivers the events of ${settings.writers} concurrent writers to a live subscriber exactly once, in strictly increasing position order`, async () => {
    // Each writer has a store of its own, as separate processes would, so their transactions interleave freely.
    const writers = await Promise.all(Array.from({ length: settings.writers }, () => context.open({ appendDelayMs: settings.appendDelayMs })));
    const store = context.store;
    const prefix = context.streams.next('writers');
    const start = await store.headPosition();
    const collector = collect(store, { prefix, after: start });
    await collector.caughtUp;

    const appended = new Map<string, string[]>();
    await Promise.all(
      writers.map((writer, index) => {
        const streams = Array.from({ length: settings.streamsPerWriter }, (__, stream) => `${prefix}-w${index}s${stream}`);
        return write(writer, streams, settings.eventsPerWriter, appended);
      }),
    );
    const sentinel = newEvent('Sentinel');
    await store.append(`${prefix}-sentinel`, [sentinel], 'no_stream');
    await collector.until((events) => events.some((event) => event.id === sentinel.id));
    await collector.subscription.stop();

    const received = collector.events.filter((event) => event.id !== sentinel.id);
    const receivedIds = new Set(received.map((event) => event.id));
    const expectedIds = [...appended.values()].flat();
    const missing = expectedIds.filter((id) => !receivedIds.has(id));
    expect(expectedIds).toHaveLength(settings.writers * settings.eventsPerWriter);
    expect(missing.length, `${missing.length} of ${expectedIds.length} events were never delivered`).toBe(0);
    expect(received.length - receivedIds.size, 'events delivered twice').toBe(0);
    expect(received).toHaveLength(expectedIds.length);
    expect(outOfOrder(collector.positions), 'positions not strictly increasing').toEqual([]);
    for (const [stream, ids] of appended) {
      const inStream = received.filter((event) => event.streamId === stream).map((event) => event.id);
      expect(inStream, `events of ${stream} out of revision order`).toEqual(ids);
    }
  });

  it('keeps the global log in revision order when concurrent writers append to the same stream', async () => {
    const writers = await Promise.all(Array.from({ length: settings.writers }, () => context.open({ appendDelayMs: settings.appendDelayMs })));
    const store = context.store;
    const stream = context.streams.next('contended');
    const start = await store.headPosition();

    const results = await Promise.all(
      writers.map(async (writer) => {
        const positions: Position[] = [];
        for (let index = 0; index < 15; index += 1) positions.push((await writer.append(stream, newEvents(1), 'any')).position);
        return positions;
      }),
    );
    const last = results.flat().reduce((max, position) => (comparePositions(position, max) > 0 ? position : max));
    await waitUntilVisible(store, last);
    const logged = (await readAllPages(store, start, 500)).flat().filter((event) => event.streamId === stream);

    expect(logged).toHaveLength(settings.writers * 15);
    expect(logged.map((event) => event.revision)).toEqual(logged.map((_, index) => BigInt(index)));
  });
}

import { expect, it } from 'vitest';
import { comparePositions, type NewEvent, type Position } from '../eventStore';
import { newEvents, outOfOrder, readAllPages, waitUntilVisible } from './conformanceHelpers';
import type { ConformanceContext } from './eventStoreConformance';

export function globalLogCases(context: ConformanceContext): void {
  it('pages through the global log with after and limit, returning every event once in append order, each page full but the last', async () => {
    const start = await context.store.headPosition();
    const streams = Array.from({ length: 4 }, () => context.streams.next('log'));
    const appended: NewEvent[] = [];
    let last: Position | undefined;
    for (let round = 0; round < 3; round += 1) {
      for (const [index, stream] of streams.entries()) {
        const events = newEvents(1 + ((round + index) % 3));
        last = (await context.store.append(stream, events, 'any')).position;
        appended.push(...events);
      }
    }
    await waitUntilVisible(context.store, last!);

    const pages = await readAllPages(context.store, start, 7);

    expect(pages.every((page) => page.length <= 7)).toBe(true);
    // A page short of the limit only at the end: a rebuild's load takes one for the log's head (bulkLoad.ts).
    expect(pages.slice(0, -1).map((page) => page.length).filter((length) => length < 7)).toEqual([]);
    const all = pages.flat();
    expect(outOfOrder(all.map((event) => event.position))).toEqual([]);
    const ours = all.filter((event) => streams.includes(event.streamId));
    expect(ours.map((event) => event.id)).toEqual(appended.map((event) => event.id));
  });

  it('returns nothing after the last position and at most limit events', async () => {
    const stream = context.streams.next('tail');
    const { position } = await context.store.append(stream, newEvents(3), 'no_stream');
    await waitUntilVisible(context.store, position);
    const head = await context.store.headPosition();

    expect(await context.store.readAll({ after: head })).toEqual([]);
    expect(await context.store.readAll({ limit: 2 })).toHaveLength(2);
  });

  it('reports the position of the last visible event as the head', async () => {
    const stream = context.streams.next('head');
    const { position } = await context.store.append(stream, newEvents(2), 'no_stream');
    await waitUntilVisible(context.store, position);

    const head = await context.store.headPosition();
    const stored = await context.store.readStream(stream);

    expect(head).toBeDefined();
    expect(comparePositions(head!, stored[1]!.position)).toBeGreaterThanOrEqual(0);
    expect(comparePositions(position, stored[1]!.position)).toBe(0);
  });
}

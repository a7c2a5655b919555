import { comparePositions, type EventStore, type Position } from '@bank/eventstore';
import { randomUUID } from 'node:crypto';
import type { StreamEvent } from './recordedEvents';

/**
 * Appends (stream, event) pairs with up to `concurrency` appends in flight: consecutive events of one stream go
 * in one append (at most `maxPerAppend`), and the appends of one stream stay in order (each waits for the previous
 * one of its stream), so every stream is exactly as generated while streams interleave in the global log.
 * Returns the greatest position appended: once a reader has passed it, it has seen every event appended here.
 */
export async function appendConcurrently(
  store: EventStore,
  events: readonly StreamEvent[],
  options: { concurrency?: number; maxPerAppend?: number } = {},
): Promise<Position | undefined> {
  const concurrency = options.concurrency ?? 8;
  const maxPerAppend = options.maxPerAppend ?? 50;
  const groups: StreamEvent[][] = [];
  for (const item of events) {
    const last = groups.at(-1);
    if (last && last[0]!.stream === item.stream && last.length < maxPerAppend) last.push(item);
    else groups.push([item]);
  }
  const tails = new Map<string, Promise<void>>();
  let highest: Position | undefined;
  const inFlight = new Set<Promise<void>>();
  for (const group of groups) {
    const stream = group[0]!.stream;
    const previous = tails.get(stream) ?? Promise.resolve();
    const task = previous.then(async () => {
      const { position } = await store.append(
        stream,
        group.map((item) => ({ id: randomUUID(), type: item.event.type, data: item.event.data as Record<string, unknown>, metadata: { schemaVersion: 1, ...item.metadata } })),
        'any',
      );
      if (!highest || comparePositions(position, highest) > 0) highest = position;
    });
    tails.set(stream, task);
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task)).catch(() => undefined);
    if (inFlight.size >= concurrency) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  await Promise.all(tails.values());
  return highest;
}

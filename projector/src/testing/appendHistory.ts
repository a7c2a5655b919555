import type { EventStore, Position } from '@bank/eventstore';
import { randomUUID } from 'node:crypto';
import type { StreamEvent } from './recordedEvents';

/**
 * Appends (stream, event) pairs to the store in order, consecutive events of one stream in one append.
 * Returns the position of the last event.
 */
export async function appendHistory(store: EventStore, events: readonly StreamEvent[]): Promise<Position | undefined> {
  let last: Position | undefined;
  let index = 0;
  while (index < events.length) {
    const stream = events[index]!.stream;
    const group: StreamEvent[] = [];
    while (index < events.length && events[index]!.stream === stream) group.push(events[index++]!);
    const result = await store.append(
      stream,
      group.map((item) => ({
        id: randomUUID(),
        type: item.event.type,
        data: item.event.data as Record<string, unknown>,
        metadata: { schemaVersion: 1, ...item.metadata },
      })),
      'any',
    );
    last = result.position;
  }
  return last;
}

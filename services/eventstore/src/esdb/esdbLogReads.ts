import { BACKWARDS, END, FORWARDS, START, type EventStoreDBClient, type ReadPosition } from '@eventstore/db-client';
import { comparePositions, type Position, type RecordedEvent } from '../eventStore';
import { isSystemEvent, toRecordedEvent } from './esdbMapping';

type LogReader = Pick<EventStoreDBClient, 'readAll'>;

/**
 * Reads of $all fetch at least this many records per request: system events ($stats every few seconds, metadata,
 * tombstones) are skipped only after they were read, and a page sized for the events still wanted (2 for the head)
 * would take one round trip per skipped record.
 */
export const MIN_LOG_PAGE = 64;

/**
 * Reads $all in pages from `cursor`, skipping the event at the cursor itself (the client's read positions are
 * inclusive, the port's are exclusive) and system events, until `limit` events are collected or the log ends.
 */
export async function readLog(client: LogReader, cursor: Position | undefined, limit: number, backwards: boolean): Promise<RecordedEvent[]> {
  const collected: RecordedEvent[] = [];
  for (;;) {
    const maxCount = Math.max(limit - collected.length + 1, MIN_LOG_PAGE);
    const fromPosition: ReadPosition = cursor ?? (backwards ? END : START);
    let seen = 0;
    let last: Position | undefined;
    const read = client.readAll({ fromPosition, maxCount, direction: backwards ? BACKWARDS : FORWARDS });
    try {
      for await (const resolved of read) {
        seen += 1;
        const event = toRecordedEvent(resolved);
        if (!event) continue;
        if (cursor) {
          const order = comparePositions(event.position, cursor);
          if (backwards ? order >= 0 : order <= 0) continue;
        }
        last = event.position;
        if (!isSystemEvent(event)) collected.push(event);
        if (collected.length === limit) break;
      }
    } finally {
      void read.cancel(); // stops the server stream when the loop ended early
    }
    if (collected.length === limit || seen < maxCount || !last) return collected;
    cursor = last;
  }
}

/** The position of the last event of ours in the log, read backwards past system events. */
export async function logHeadPosition(client: LogReader): Promise<Position | undefined> {
  const [last] = await readLog(client, undefined, 1, true);
  return last?.position;
}

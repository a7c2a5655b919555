import type { EventStoreDBClient } from '@eventstore/db-client';
import type { Position } from '../eventStore';
import { isInvalidPosition } from './esdbErrors';
import { isSystemEvent, toRecordedEvent } from './esdbMapping';

/** The largest position EventStoreDB can have (a signed 64-bit log position). */
const MAX_POSITION = 2n ** 63n - 1n;
/** The events of one append share a commit position; more than this many in one append are not looked through. */
const MAX_EVENTS_PER_COMMIT = 100;

/**
 * The position behind a token (a commit position): the last event of ours with that commit position, or undefined.
 * Tokens come from clients (X-Consistent-Position): one that is not a number, beyond any position, or inside a
 * record (the server refuses to read from there: InvalidPosition) names no event, and is no error.
 */
export async function resolveEsdbPositionToken(client: Pick<EventStoreDBClient, 'readAll'>, token: string): Promise<Position | undefined> {
  if (!/^\d{1,19}$/.test(token) || BigInt(token) > MAX_POSITION) return undefined;
  const commit = BigInt(token);
  let found: Position | undefined;
  const read = client.readAll({ fromPosition: { commit, prepare: commit }, maxCount: MAX_EVENTS_PER_COMMIT });
  try {
    for await (const resolved of read) {
      const event = toRecordedEvent(resolved);
      if (!event) continue;
      if (event.position.commit !== commit) break;
      if (!isSystemEvent(event)) found = event.position;
    }
  } catch (error) {
    if (isInvalidPosition(error)) return undefined;
    throw error;
  } finally {
    void read.cancel();
  }
  return found;
}

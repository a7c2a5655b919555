import type { NewEvent } from './eventStore';
import { isUuid } from '@bank/platform';


/** Refuses what no adapter may store (RangeError): no events, an id that is not a UUID, the same id twice. */
export function checkNewEvents(events: readonly NewEvent[]): void {
  if (events.length === 0) throw new RangeError('append needs at least one event');
  const ids = new Set<string>();
  for (const event of events) {
    if (!isUuid(event.id)) throw new RangeError(`An event id is a UUID, got ${JSON.stringify(event.id)}`);
    ids.add(event.id.toLowerCase());
  }
  if (ids.size !== events.length) throw new RangeError('append got the same event id twice');
}

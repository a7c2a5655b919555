import { eventTypeFilter, excludeSystemEvents, type AllStreamSubscription } from '@eventstore/db-client';
import type { Position } from '../eventStore';

/** How often (in the server's units) a filtered subscription reports how far it has looked: as often as it may. */
const CHECKPOINT_INTERVAL = 1;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A regex matching exactly the given event types (never a system event: theirs begin with '$'). */
export function eventTypesRegex(types: readonly string[]): string {
  return `^(?:${types.map(escapeRegex).join('|')})$`;
}

/**
 * The server-side filter of a subscription to $all: without types, every event but the system ones; with types,
 * only those (EventStoreDB skips the others on the server), and `onCheckpoint` hears the positions the server
 * says it has looked at so far.
 */
export function subscriptionFilter(types: readonly string[] | undefined, onCheckpoint: (position: Position) => void) {
  if (!types) return excludeSystemEvents();
  return eventTypeFilter({
    regex: eventTypesRegex(types),
    checkpointInterval: CHECKPOINT_INTERVAL,
    checkpointReached: (_subscription: AllStreamSubscription, position: Position) => onCheckpoint(position),
  });
}

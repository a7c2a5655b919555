import type { StoredEvent } from '@bank/domain';
import type { RecordedEvent } from '@bank/eventstore';

/**
 * An event as the domain's replay reads it: the instant it happened (`metadata.occurredAt`, covered by the hash
 * chain; the store's own time only when that is missing or not a date) and its schema version. The instant is
 * parsed once here, as a Date, since replays compare it with the instant asked for.
 */
export function toStoredEvent(event: RecordedEvent): StoredEvent {
  const recorded = event.metadata.occurredAt;
  const occurred = typeof recorded === 'string' ? new Date(recorded) : undefined;
  return {
    type: event.type,
    data: event.data,
    createdAt: occurred && !Number.isNaN(occurred.getTime()) ? occurred : event.created,
    schemaVersion: typeof event.metadata.schemaVersion === 'number' ? event.metadata.schemaVersion : undefined,
  };
}

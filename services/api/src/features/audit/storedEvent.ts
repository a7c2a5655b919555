import type { StoredEvent } from '@bank/domain';
import type { RecordedEvent } from '@bank/eventstore';

/**
 * The instant an event happened for the replays: `metadata.occurredAt` (covered by the hash chain); the store's own
 * time only when that is missing or not a date.
 */
export function occurredAtOf(event: RecordedEvent): Date {
  const recorded = event.metadata.occurredAt;
  const occurred = typeof recorded === 'string' ? new Date(recorded) : undefined;
  return occurred && !Number.isNaN(occurred.getTime()) ? occurred : event.created;
}

/** The schema version an event was written with (metadata), undefined for the oldest events. */
export function schemaVersionOf(event: RecordedEvent): number | undefined {
  return typeof event.metadata.schemaVersion === 'number' ? event.metadata.schemaVersion : undefined;
}

/**
 * An event as the domain's replay reads it: the instant it happened (occurredAtOf) and its schema version. The
 * instant is parsed once here, as a Date, since replays compare it with the instant asked for.
 */
export function toStoredEvent(event: RecordedEvent): StoredEvent {
  return { type: event.type, data: event.data, createdAt: occurredAtOf(event), schemaVersion: schemaVersionOf(event) };
}

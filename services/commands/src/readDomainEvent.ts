import { parseEvent, type BankEvent } from '@bank/domain';
import type { RecordedEvent } from '@bank/eventstore';

/**
 * A stored event as the domain reads it: validated against its schema and upcast from the schema version it was
 * written with (metadata.schemaVersion) to the current one. The write side and the projector read events through
 * this one function, so an old event always means the same to both.
 */
export function readDomainEvent(recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>): BankEvent {
  const version = recorded.metadata.schemaVersion;
  return parseEvent(recorded.type, recorded.data, typeof version === 'number' ? version : undefined);
}

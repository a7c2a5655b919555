import { createHash } from 'node:crypto';
import type { EventMetadata, RecordedEvent } from '@bank/eventstore';
import { canonicalJson } from './canonicalJson';

/**
 * Tamper evidence. Every event's metadata carries `hash` = sha256 over the canonical JSON of
 * { streamId, revision, id, type, data, metadata without hash, prevHash }, where prevHash is the hash of the
 * previous event of the same stream (null for the first). Editing an event's data breaks its own hash;
 * deleting one breaks the next event's link.
 */
export interface ChainInput {
  readonly streamId: string;
  readonly revision: bigint;
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly metadata: EventMetadata;
}

export function chainHash(event: ChainInput, prevHash: string | null): string {
  const { hash: _hash, ...metadata } = event.metadata;
  const text = canonicalJson({
    streamId: event.streamId,
    revision: event.revision.toString(),
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: { ...metadata, prevHash },
  });
  return createHash('sha256').update(text).digest('hex');
}

export interface ChainBreak {
  readonly streamId: string;
  readonly revision: bigint;
  readonly position: RecordedEvent['position'] | undefined;
  readonly reason: 'hash_mismatch' | 'link_mismatch' | 'revision_gap' | 'missing_hash';
}

/** Checks one stream's events (in revision order) and returns the first break, or undefined when intact. */
export function verifyChain(events: readonly RecordedEvent[]): ChainBreak | undefined {
  let prevHash: string | null = null;
  let expectedRevision = 0n;
  for (const event of events) {
    const at = { streamId: event.streamId, revision: event.revision, position: event.position };
    if (event.revision !== expectedRevision) return { ...at, reason: 'revision_gap' };
    const stored = event.metadata.hash;
    if (typeof stored !== 'string') return { ...at, reason: 'missing_hash' };
    if ((event.metadata.prevHash ?? null) !== prevHash) return { ...at, reason: 'link_mismatch' };
    if (chainHash(event, prevHash) !== stored) return { ...at, reason: 'hash_mismatch' };
    prevHash = stored;
    expectedRevision += 1n;
  }
  return undefined;
}

import type { BankEvent } from '@bank/domain';
import type { EventMetadata, RecordedEvent } from '@bank/eventstore';

/** A deterministic valid UUID from a number. */
export function testId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export interface StreamEvent {
  readonly stream: string;
  readonly event: BankEvent | { readonly type: string; readonly data: Record<string, unknown> };
  readonly metadata?: EventMetadata;
}

/**
 * Turns (stream, event) pairs into RecordedEvents as the store would deliver them: positions 1, 2, … (commit and
 * prepare equal), revisions counted per stream, ids derived from the position, record times one second apart.
 */
export function toRecordedEvents(events: readonly StreamEvent[], firstPosition = 1): RecordedEvent[] {
  const revisions = new Map<string, bigint>();
  return events.map((item, index) => {
    const n = firstPosition + index;
    const revision = revisions.get(item.stream) ?? 0n;
    revisions.set(item.stream, revision + 1n);
    return {
      id: testId(1_000_000 + n),
      streamId: item.stream,
      revision,
      position: { commit: BigInt(n), prepare: BigInt(n) },
      type: item.event.type,
      data: item.event.data as Record<string, unknown>,
      metadata: item.metadata ?? {},
      created: new Date(Date.UTC(2025, 5, 1, 10, 0, 0) + n * 1000),
    };
  });
}

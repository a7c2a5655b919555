import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@bank/eventstore';
import { toNewEvents } from './handleCommand';
import { verifyChain } from './hashChain';

function record(streamId: string, count: number): RecordedEvent[] {
  const events = toNewEvents(
    streamId,
    Array.from({ length: count }, (_, i) => ({ type: 'AccountCredited', data: { amountCents: 100 * (i + 1) } })),
    { revision: undefined, lastHash: null },
    { metadata: { actorId: 'u1', actorRole: 'customer' } },
    new Date('2026-01-01T00:00:00Z'),
  );
  return events.map((event, i) => ({
    ...event,
    streamId,
    revision: BigInt(i),
    position: { commit: 1n, prepare: BigInt(i + 1) },
    metadata: event.metadata ?? {},
    created: new Date(),
  }));
}

describe('the hash chain', () => {
  it('verifies an untouched stream', () => {
    expect(verifyChain(record('account-1', 4))).toBeUndefined();
  });

  it('survives a storage round trip that reorders keys', () => {
    const events = record('account-1', 2).map((event) => ({ ...event, data: JSON.parse(JSON.stringify(event.data)) as Record<string, unknown> }));
    expect(verifyChain(events)).toBeUndefined();
  });

  it('reports the event whose data was changed', () => {
    const events = record('account-1', 4);
    events[2] = { ...events[2]!, data: { amountCents: 999999 } };
    expect(verifyChain(events)).toMatchObject({ streamId: 'account-1', revision: 2n, reason: 'hash_mismatch' });
  });

  it('reports a deleted event', () => {
    const events = record('account-1', 4);
    events.splice(1, 1);
    expect(verifyChain(events)).toMatchObject({ revision: 2n, reason: 'revision_gap' });
  });

  it('reports a deleted event even when the revisions are renumbered to hide it', () => {
    const events = record('account-1', 4);
    events.splice(1, 1);
    const renumbered = events.map((event, i) => ({ ...event, revision: BigInt(i) }));
    expect(verifyChain(renumbered)).toMatchObject({ revision: 1n });
  });
});

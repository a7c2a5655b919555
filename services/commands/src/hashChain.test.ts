import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@bank/eventstore';
import { parseKeyringText, type KeyringKey } from '@bank/platform';
import { toNewEvents } from './commandContext';
import { chainHash, verifyChain } from './hashChain';

function record(streamId: string, count: number, key?: KeyringKey, from: readonly RecordedEvent[] = []): RecordedEvent[] {
  const last = from.at(-1);
  const events = toNewEvents(
    streamId,
    Array.from({ length: count }, (_, i) => ({ type: 'AccountCredited', data: { amountCents: 100 * (from.length + i + 1) } })),
    { revision: last?.revision, lastHash: (last?.metadata.hash as string | undefined) ?? null },
    { metadata: { actorId: 'u1', actorRole: 'customer' } },
    new Date('2026-01-01T00:00:00Z'),
    key,
  );
  return [
    ...from,
    ...events.map((event, i) => ({
      ...event,
      streamId,
      revision: BigInt(from.length + i),
      position: { commit: 1n, prepare: BigInt(from.length + i + 1) },
      metadata: event.metadata ?? {},
      created: new Date(),
    })),
  ];
}

/** What a forger without the key can do: change an event and recompute every hash from there with plain SHA-256. */
function forgeUnkeyed(events: RecordedEvent[], at: number, data: Record<string, unknown>): RecordedEvent[] {
  const forged = [...events];
  let prevHash = at === 0 ? null : (forged[at - 1]!.metadata.hash as string);
  for (let i = at; i < forged.length; i += 1) {
    const { chainKeyId: _dropped, ...metadata } = forged[i]!.metadata;
    const event = { ...forged[i]!, data: i === at ? data : forged[i]!.data, metadata: { ...metadata, prevHash } };
    const hash = chainHash(event, prevHash);
    forged[i] = { ...event, metadata: { ...event.metadata, hash } };
    prevHash = hash;
  }
  return forged;
}

const k1 = Buffer.alloc(32, 1).toString('base64');
const k2 = Buffer.alloc(32, 2).toString('base64');

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

describe('the keyed hash chain', () => {
  const ring = parseKeyringText('chain', 'CHAIN_KEYS', `k1:${k1}`);

  it('names its key in every event and verifies with the keyring, not without it', () => {
    const events = record('account-1', 3, ring.current);
    expect(events.map((event) => event.metadata.chainKeyId)).toEqual(['k1', 'k1', 'k1']);
    expect(verifyChain(events, ring)).toBeUndefined();
    expect(verifyChain(events)).toMatchObject({ revision: 0n, reason: 'unknown_key', keyId: 'k1' });
  });

  it('catches a changed event whose hash was recomputed with a key other than the chain key', () => {
    const events = record('account-1', 3, ring.current);
    const changed = { ...events[1]!, data: { amountCents: 1 } };
    events[1] = { ...changed, metadata: { ...changed.metadata, hash: chainHash(changed, changed.metadata.prevHash as string, Buffer.alloc(32, 3)) } };
    expect(verifyChain(events, ring)).toMatchObject({ revision: 1n, reason: 'hash_mismatch' });
  });

  it('refuses an unkeyed chain recomputed over keyed events (a forger without the key)', () => {
    const events = record('account-1', 4, ring.current);
    expect(verifyChain(forgeUnkeyed(events, 2, { amountCents: 999_999 }), ring)).toMatchObject({ revision: 2n, reason: 'unkeyed' });
  });

  it('keeps legacy events verifying, and a stream that goes on keyed after them', () => {
    const legacy = record('account-1', 2);
    expect(legacy[0]!.metadata.chainKeyId).toBeUndefined();
    const mixed = record('account-1', 2, ring.current, legacy);
    expect(verifyChain(mixed, ring)).toBeUndefined();
    // A legacy event is still checked: its plain hash covers it.
    mixed[1] = { ...mixed[1]!, data: { amountCents: 5 } };
    expect(verifyChain(mixed, ring)).toMatchObject({ revision: 1n, reason: 'hash_mismatch' });
  });

  it('keeps events keyed with a retired key verifying after a rotation, as long as the key stays in the keyring', () => {
    const before = record('account-1', 2, ring.current);
    const rotated = parseKeyringText('chain', 'CHAIN_KEYS', `k2:${k2},k1:${k1}`);
    const after = record('account-1', 2, rotated.current, before);
    expect(after.map((event) => event.metadata.chainKeyId)).toEqual(['k1', 'k1', 'k2', 'k2']);
    expect(verifyChain(after, rotated)).toBeUndefined();
    expect(verifyChain(after, parseKeyringText('chain', 'CHAIN_KEYS', `k2:${k2}`))).toMatchObject({ revision: 0n, reason: 'unknown_key', keyId: 'k1' });
  });
});

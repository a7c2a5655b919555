import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@bank/eventstore';
import { parseKeyringText, type KeyringKey } from '@bank/platform';
import { toNewEvents } from './commandContext';
import fc from 'fast-check';
import { canonicalJson } from './canonicalJson';
import { chainHash, chainText, verifyChain } from './hashChain';

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

describe('what the chain hashes', () => {
  const json = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined));
  const object = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(json, fc.array(json, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), json)));

  // Metadata as stored (its hash and link among its members) or as about to be hashed (neither).
  const metadata = fc
    .tuple(object, fc.option(fc.string()), fc.option(fc.string()))
    .map(([members, hash, link]) => ({ ...members, ...(hash === null ? {} : { hash }), ...(link === null ? {} : { prevHash: link }) }));

  it('is the canonical JSON of the event with its link, whatever the metadata holds (its own hash left out)', () => {
    fc.assert(
      fc.property(object, metadata, fc.option(fc.stringMatching(/^[0-9a-f]{64}$/)), fc.bigInt({ min: 0n, max: 2n ** 62n }), fc.string(), (data, metadata, prevHash, revision, type) => {
        const event = { streamId: `account-${type}`, revision, id: 'e-1', type, data, metadata };
        const { hash: _hash, ...rest } = metadata;
        const expected = canonicalJson({ streamId: event.streamId, revision: revision.toString(), id: 'e-1', type, data, metadata: { ...rest, prevHash } });
        expect(chainText(event, prevHash)).toBe(expected);
      }),
    );
  });

  it('keeps the ids and hashes of events already stored (the same command gives the same bytes as before)', () => {
    const key = { id: 'k1', key: Buffer.alloc(32, 7) };
    const events = toNewEvents(
      'account-u1',
      [
        { type: 'TransferDebited', data: { transferId: 't-1', amountCents: 1250, note: 'Rent "June" \u00e9\u{1F600}', skipped: undefined, nested: { z: [1, { b: null, a: 'x' }], a: true } } },
        { type: 'AccountCredited', data: { amountCents: 7 } },
      ],
      { revision: 4n, lastHash: 'f'.repeat(64) },
      { metadata: { actorId: 'u1', actorRole: 'customer', requestId: 'r-1', correlationId: 'c-1' }, commandId: 'cmd-1' },
      new Date('2026-01-02T03:04:05.678Z'),
      key,
    );
    // Computed by the code that wrote the stored chains (before chainText): a change here breaks every stored chain.
    expect(events.map((event) => [event.id, event.metadata?.hash])).toEqual([
      ['8d582796-a078-5464-857b-2fe398753f0a', '09fe9306526e1bac4580f702bf4828d5eae1b5b72ab5120260aa5a7e153f2786'],
      ['7377a564-5509-547f-a089-cbe8f78dbeb5', '6b5a02e3757dff7fbe0944d9f21f441ef2f8c8c181405847d2b0fdc1cfefe533'],
    ]);
    expect(Object.keys(events[0]!.metadata ?? {})).toEqual(['schemaVersion', 'actorId', 'actorRole', 'requestId', 'correlationId', 'occurredAt', 'prevHash', 'chainKeyId', 'hash']);
    expect(events[1]!.metadata?.prevHash).toBe(events[0]!.metadata?.hash);
    expect(chainHash({ streamId: 's', revision: 0n, id: 'i', type: 't', data: { a: 1 }, metadata: { actorId: 'x' } }, null)).toBe(
      'e2189849f3c0febeec75c4dbaffc49f2f982b326b9c3a8cabeefb6b2bb0ef7f8',
    );
  });
});

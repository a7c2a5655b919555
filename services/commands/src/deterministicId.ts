import { createHash } from 'node:crypto';

/** The namespace under which the bank derives event ids (a fixed random UUID). */
const BANK_NAMESPACE = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f607';

/** The bank namespace's bytes, parsed once (every event of a command with an id derives its id here). */
const BANK_NAMESPACE_BYTES = namespaceBytes(BANK_NAMESPACE);

function namespaceBytes(namespace: string): Buffer {
  return Buffer.from(namespace.replace(/-/g, ''), 'hex');
}

/**
 * A name-based UUID (version 5, SHA-1) of `name` in the bank's namespace: the same command retried yields the
 * same event ids, so the event store's id check turns the retry into a no-op.
 */
export function deterministicId(name: string, namespace = BANK_NAMESPACE): string {
  const hash = createHash('sha1').update(namespace === BANK_NAMESPACE ? BANK_NAMESPACE_BYTES : namespaceBytes(namespace)).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

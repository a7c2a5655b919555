import { createHash, createHmac } from 'node:crypto';
import type { EventMetadata, RecordedEvent } from '@bank/eventstore';
import { loadKeyring, type Config, type Keyring, type Logger } from '@bank/platform';
import { canonicalJson, canonicalJsonWith } from './canonicalJson';

/**
 * Tamper evidence. Every event's metadata carries `hash`, computed over the canonical JSON of
 * { streamId, revision, id, type, data, metadata without hash, prevHash }, where prevHash is the hash of the
 * previous event of the same stream (null for the first). Editing an event's data breaks its own hash;
 * deleting one breaks the next event's link.
 *
 * The hash is keyed: HMAC-SHA-256 with the current key of the chain keyring (CHAIN_KEYS, held outside the database),
 * whose id the event names in `metadata.chainKeyId` (covered by the hash). Without the key, someone who can write the
 * database cannot compute a valid hash for an event they changed. Events written before the key existed carry no key
 * id and a plain SHA-256: they verify as legacy, but an unkeyed event after a keyed one in a stream is refused (a
 * forger's way around the key). Rotation: a new key goes first in CHAIN_KEYS, the old ones stay after it, so that
 * the events they keyed still verify (docs/operations.md).
 */
export interface ChainInput {
  readonly streamId: string;
  readonly revision: bigint;
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly metadata: EventMetadata;
}

/** The metadata field naming the chain key of an event's hash; absent on legacy (unkeyed) events. */
export const CHAIN_KEY_ID = 'chainKeyId';

/** What verifying keyed chains needs of a keyring. */
export type ChainKeys = Pick<Keyring, 'byId'>;

export const CHAIN_KEYS_VARIABLE = 'CHAIN_KEYS';

/**
 * The chain keyring: CHAIN_KEYS (`id:base64key[,…]`, the first keys new events), else outside production a key file
 * generated once into `<DATA_DIR>/keys/chain.json`; production refuses to start without the variable.
 */
export function loadChainKeys(config: Pick<Config, 'NODE_ENV' | 'DATA_DIR'>, env: Record<string, string | undefined>, logger?: Logger): Keyring {
  return loadKeyring({
    name: 'chain',
    envVar: CHAIN_KEYS_VARIABLE,
    env,
    dataDir: config.DATA_DIR,
    production: config.NODE_ENV === 'production',
    onCreated: (file) =>
      logger?.warn({ file }, `Created a new key file ${file} (mode 0600) because ${CHAIN_KEYS_VARIABLE} is not set; production requires ${CHAIN_KEYS_VARIABLE} from the environment`),
  });
}

/** The event's hash: HMAC-SHA-256 with `key` when given (the event's metadata must then name its id), else SHA-256. */
export function chainHash(event: ChainInput, prevHash: string | null, key?: Buffer): string {
  const text = chainText(event, prevHash);
  return key ? createHmac('sha256', key).update(text).digest('hex') : createHash('sha256').update(text).digest('hex');
}

/**
 * What the hash covers: the canonical JSON of { streamId, revision, id, type, data, metadata without hash, prevHash }.
 * Written member by member in canonical (sorted) order rather than built as an object and sorted: every append
 * hashes its events, and the generated bank millions of them. `hashChain.test.ts` holds it to canonicalJson of that
 * object.
 */
export function chainText(event: ChainInput, prevHash: string | null): string {
  return (
    `{"data":${canonicalJson(event.data)},"id":${JSON.stringify(event.id)},"metadata":${canonicalJsonWith(event.metadata, 'hash', 'prevHash', prevHash)}` +
    `,"revision":"${event.revision.toString()}","streamId":${JSON.stringify(event.streamId)},"type":${JSON.stringify(event.type)}}`
  );
}

/** The chain key id an event names, or undefined for a legacy (unkeyed) event. */
export function chainKeyIdOf(event: Pick<RecordedEvent, 'metadata'>): string | undefined {
  const id = event.metadata[CHAIN_KEY_ID];
  return typeof id === 'string' ? id : undefined;
}

export interface ChainBreak {
  readonly streamId: string;
  readonly revision: bigint;
  readonly position: RecordedEvent['position'] | undefined;
  readonly reason: 'hash_mismatch' | 'link_mismatch' | 'revision_gap' | 'missing_hash' | 'unknown_key' | 'unkeyed';
  /** For unknown_key: the key id the event names. */
  readonly keyId?: string;
}

/**
 * Checks one stream's events (in revision order) and returns the first break, or undefined when intact. A keyed
 * event is checked with the key it names (`unknown_key` when `keys` lacks it); an unkeyed event after a keyed one
 * is `unkeyed`.
 */
export function verifyChain(events: readonly RecordedEvent[], keys?: ChainKeys): ChainBreak | undefined {
  let prevHash: string | null = null;
  let expectedRevision = 0n;
  let keyed = false;
  for (const event of events) {
    const at = { streamId: event.streamId, revision: event.revision, position: event.position };
    if (event.revision !== expectedRevision) return { ...at, reason: 'revision_gap' };
    const stored = event.metadata.hash;
    if (typeof stored !== 'string') return { ...at, reason: 'missing_hash' };
    if ((event.metadata.prevHash ?? null) !== prevHash) return { ...at, reason: 'link_mismatch' };
    const keyId = event.metadata[CHAIN_KEY_ID];
    let key: Buffer | undefined;
    if (keyId !== undefined) {
      key = typeof keyId === 'string' ? keys?.byId(keyId) : undefined;
      if (!key) return { ...at, reason: 'unknown_key', keyId: String(keyId) };
      keyed = true;
    } else if (keyed) {
      return { ...at, reason: 'unkeyed' };
    }
    if (chainHash(event, prevHash, key) !== stored) return { ...at, reason: 'hash_mismatch' };
    prevHash = stored;
    expectedRevision += 1n;
  }
  return undefined;
}

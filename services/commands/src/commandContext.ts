import { randomUUID } from 'node:crypto';
import type { EventMetadata, NewEvent } from '@bank/eventstore';
import type { Role } from '@bank/domain';
import type { KeyringKey } from '@bank/platform';
import { CHAIN_KEY_ID, chainHash } from './hashChain';
import { deterministicId } from './deterministicId';
import { jsonCopy } from './jsonCopy';

/** The least a domain event needs to be stored. */
export interface DomainEventLike {
  readonly type: string;
  readonly data: object;
}

/** Version of the event data shapes the services append (docs/events.md); stored in every event's metadata. */
export const EVENT_SCHEMA_VERSION = 1;

/** Who may act in the bank, as recorded in every event's metadata (`system`: the bank's own processes). */
export type ActorRole = Role | 'system' | 'anonymous';

/** The metadata the bank records with each event: the store's, with the bank's roles. */
export type BankEventMetadata = Omit<EventMetadata, 'hash' | 'prevHash' | 'chainKeyId' | 'actorRole'> & { readonly actorRole?: ActorRole };

export interface CommandContext {
  /**
   * Who acts and on behalf of what: copied into every event's metadata (actor, request, correlation and causation
   * ids). `schemaVersion` defaults to EVENT_SCHEMA_VERSION.
   */
  readonly metadata: BankEventMetadata;
  /**
   * A stable id for this command (e.g. derived from an idempotency key or a transfer's id and step). When given,
   * event ids derive from it, so a retried command re-appends the same ids and the store ignores them.
   */
  readonly commandId?: string;
}

/** Where a stream stands: the revision of its last event (undefined: empty) and that event's chain hash. */
export interface StreamHead {
  readonly revision: bigint | undefined;
  readonly lastHash: string | null;
}

/** The id of the `index`-th event a command with an id appended to a stream (the same on every retry). */
export function commandEventId(commandId: string, streamId: string, index: number): string {
  return deterministicId(`${commandId}:${streamId}:${index}`);
}

/**
 * What every event of a command records, built once: the schema version, the context's metadata and the instant, in
 * that order (a `chainKeyId` of the context's left out: the key's id is the chain's to set). Each event then adds
 * its link, the key's id and its hash. Copied member by member rather than by an object rest that leaves one key
 * out, which V8 does in its runtime on every call (every command appends through here).
 */
function commonMetadata(context: CommandContext, now: Date): Record<string, unknown> {
  const common: Record<string, unknown> = { schemaVersion: EVENT_SCHEMA_VERSION };
  const given = context.metadata as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(given)) if (key !== CHAIN_KEY_ID) common[key] = given[key];
  common.occurredAt = now.toISOString();
  return common;
}

/**
 * Wraps domain events for the store: ids, metadata and the hash chain continuing from the stream's head, keyed with
 * `chainKey` (HMAC-SHA-256, its id in `metadata.chainKeyId`) when given, else a plain SHA-256 (legacy; see hashChain.ts).
 */

export function toNewEvents(
  streamId: string,
  events: readonly DomainEventLike[],
  after: StreamHead,
  context: CommandContext,
  now: Date,
  chainKey?: KeyringKey,
): NewEvent[] {
  let prevHash = after.lastHash;
  let revision = after.revision === undefined ? 0n : after.revision + 1n;
  const common = commonMetadata(context, now);
  // The hash covers the key's id too: it goes in before the hash is made.
  const hashed: EventMetadata = chainKey ? { ...common, [CHAIN_KEY_ID]: chainKey.id } : common;
  return events.map((event, index) => {
    const id = context.commandId ? commandEventId(context.commandId, streamId, index) : randomUUID();
    const data = jsonCopy(event.data) as Record<string, unknown>;
    const hash = chainHash({ streamId, revision, id, type: event.type, data, metadata: hashed }, prevHash, chainKey?.key);
    const metadata: EventMetadata = chainKey ? { ...common, prevHash, [CHAIN_KEY_ID]: chainKey.id, hash } : { ...common, prevHash, hash };
    prevHash = hash;
    revision += 1n;
    return { id, type: event.type, data, metadata };
  });
}

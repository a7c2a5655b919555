import type { Decider } from '@bank/domain';
import type { EventStore, NewEvent, Position } from '@bank/eventstore';
import type { Keyring, Logger } from '@bank/platform';
import type { CommandContext, DomainEventLike, StreamHead } from '../commandContext';
import type { CommandMetrics } from '../commandMetrics';
import type { SnapshotStore } from '../snapshotStore';

/** A command for the handler: a decider, the stream it decides on, and the decision to run on its state. */
export interface CommandRequest<C, E extends DomainEventLike, S> {
  readonly decider: Decider<C, E, S>;
  readonly streamId: string;
  /**
   * Decides against the stream's current state: the events to append ([] = nothing to do), or a DomainError thrown
   * to refuse. It must not change `state`, and may be called more than once (after a conflict).
   */
  readonly decide: (state: S) => readonly E[];
  readonly context: CommandContext;
  /** For metrics and logs. */
  readonly commandType: string;
  /**
   * The stream is expected not to exist yet (its first command, e.g. a transfer's record): when it is not cached,
   * decide on the initial state without reading it. Should it exist after all, the append conflicts and the command
   * is decided again on the stream as read, so this saves a read and never changes an outcome.
   */
  readonly expectNew?: boolean;
}

export interface CommandResult<S, E> {
  /** The events this command appended (empty: nothing to do, or already stored by an earlier try). */
  readonly events: readonly E[];
  /** Position of the last event of the append that stored them (undefined when nothing was appended). */
  readonly position: Position | undefined;
  /** The stream's revision after the append. */
  readonly revision: bigint | undefined;
  /**
   * The state right after this command's events. Read it at once: an aggregate that folds in place (see
   * domain/src/decider.ts) keeps changing the same object as later commands are decided.
   */
  readonly state: S;
  /** The events were already stored (a retried command): nothing new was appended. */
  readonly duplicate: boolean;
}

export interface CommandHandlerOptions {
  readonly store: EventStore;
  /** Persisted snapshots; without them a state not in the cache is folded from the stream's first event. */
  readonly snapshots?: SnapshotStore;
  /** Streams whose state stays in memory (LRU). Default 10,000. */
  readonly cacheSize?: number;
  /** Events between two snapshots of a stream. Default 500. */
  readonly snapshotEvery?: number;
  /** Tries per command when other processes keep moving its stream. Default 25. */
  readonly maxAttempts?: number;
  /** Most commands decided together. Default 256. */
  readonly maxBatch?: number;
  readonly metrics?: CommandMetrics;
  readonly logger?: Logger;
  readonly now?: () => Date;
  /**
   * The chain keyring (CHAIN_KEYS, see hashChain.ts): new events' hashes are HMAC-SHA-256 with its current key.
   * Without it they are plain SHA-256 (legacy; tests and tools that do not need the keyed chain).
   */
  readonly chainKeys?: Pick<Keyring, 'current'>;
}

/** Work counted since the handler started (what the growth tests assert instead of time). */
export interface CommandStats {
  readonly commands: number;
  /** Events read from the store to bring states up to date. */
  readonly eventsRead: number;
  readonly conflicts: number;
  readonly batches: number;
  readonly snapshotsSaved: number;
  readonly snapshotsLoaded: number;
}

export interface CommandHandler {
  execute<C, E extends DomainEventLike, S>(request: CommandRequest<C, E, S>): Promise<CommandResult<S, E>>;
  /**
   * Reads a stream's state through its queue (after the commands queued before it), brought up to date with the
   * store when `fresh`; `view` runs at once on the state and must not keep or change it.
   */
  read<S, V>(aggregate: Aggregate<S>, streamId: string, view: (state: S, head: StreamHead) => V, options?: { fresh?: boolean }): Promise<V>;
  /**
   * Wraps events for the store exactly as this handler would append them after `head` (ids derived from the
   * context's commandId, metadata, the hash chain keyed with the handler's current chain key), for a writer that
   * appends many streams at once itself (the month end's interest payments). A stream appended to that way may be
   * cached stale here: the next command on it conflicts and is decided again on the stream as read.
   */
  wrapEvents(streamId: string, events: readonly DomainEventLike[], head: StreamHead, context: CommandContext): NewEvent[];
  /** Forgets every cached state (tests; after a restore of the event store). */
  clearCache(): void;
  stats(): CommandStats;
  /** Resolves when the snapshots being written are written. */
  flush(): Promise<void>;
}

/** What reading a stream's state needs of its decider. */
export type Aggregate<S> = Pick<Decider<never, never, S>, 'name' | 'stateVersion' | 'initialState' | 'evolve' | 'snapshot' | 'fork'>;

export const DEFAULT_CACHE_SIZE = 10_000;
export const DEFAULT_SNAPSHOT_EVERY = 500;
export const DEFAULT_MAX_BATCH = 256;

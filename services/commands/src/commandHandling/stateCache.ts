import type { EventStore, RecordedEvent } from '@bank/eventstore';
import type { Logger } from '@bank/platform';
import { LRUCache } from 'lru-cache';
import { readDomainEvent } from '../readDomainEvent';
import type { SnapshotStore } from '../snapshotStore';
import type { AnyDecider } from './commandJobs';
import type { HandlerStats } from './handlerStats';
import type { SnapshotWriter } from './snapshotWriter';

/** A stream's folded state as the handler keeps it. */
export interface CachedState {
  state: unknown;
  revision: bigint | undefined;
  lastHash: string | null;
  /** Revision of the last snapshot written or read (undefined: none). */
  snapshotRevision: bigint | undefined;
}

/** A state as loaded: `verified` when it was just brought up to date with the store (not taken from the cache). */
export interface LoadedState {
  readonly entry: CachedState;
  readonly verified: boolean;
}

/**
 * The streams' folded states: a bounded LRU cache in front of the store. A state not in the cache starts from the
 * stream's persisted snapshot (if any) and folds the events after it; `fresh` brings a cached one up to date.
 */
export interface StateCache {
  load(decider: AnyDecider, streamId: string, fresh: boolean, expectNew?: boolean): Promise<LoadedState>;
  /** True when no event follows `revision` in the stream (the state decided on was current). */
  isCurrent(streamId: string, revision: bigint | undefined): Promise<boolean>;
  /** Keeps a state the handler just appended to (and writes its snapshot when one is due). */
  stored(decider: AnyDecider, streamId: string, entry: CachedState): void;
  forget(decider: AnyDecider, streamId: string): void;
  clear(): void;
}

const READ_PAGE = 2_000;

export function nextRevision(revision: bigint | undefined): bigint {
  return revision === undefined ? 0n : revision + 1n;
}

function hashOf(event: RecordedEvent): string | null {
  return typeof event.metadata.hash === 'string' ? event.metadata.hash : null;
}

const emptyState = (decider: AnyDecider): CachedState => ({ state: decider.initialState, revision: undefined, lastHash: null, snapshotRevision: undefined });

export function createStateCache(options: {
  readonly store: EventStore;
  readonly snapshots: SnapshotStore | undefined;
  readonly cacheSize: number;
  readonly writer: SnapshotWriter;
  readonly stats: HandlerStats;
  readonly logger: Logger | undefined;
}): StateCache {
  const { store, snapshots, writer, stats, logger } = options;
  const cache = new LRUCache<string, CachedState>({ max: options.cacheSize });
  const keyOf = (decider: AnyDecider, streamId: string) => `${decider.name}\u0000${streamId}`;

  /** The stream's persisted snapshot as a starting state, or the initial state (a snapshot is only a cache). */
  async function fromSnapshot(decider: AnyDecider, streamId: string): Promise<CachedState> {
    if (!snapshots || !decider.snapshot) return emptyState(decider);
    try {
      const snapshot = await snapshots.load(decider.name, decider.stateVersion, streamId);
      if (!snapshot) return emptyState(decider);
      stats.counts.snapshotsLoaded += 1;
      stats.metrics.snapshot(decider.name, 'loaded');
      return { state: decider.snapshot.decode(snapshot.state), revision: snapshot.revision, lastHash: snapshot.lastHash, snapshotRevision: snapshot.revision };
    } catch (error) {
      // A snapshot is only a cache: fold from the log instead.
      stats.metrics.snapshot(decider.name, 'failed');
      logger?.warn({ err: error, streamId, aggregate: decider.name }, 'could not read a snapshot; folding the stream from its start');
      return emptyState(decider);
    }
  }

  /** Folds the events after the entry's revision into it; the number of events read. */
  async function catchUp(decider: AnyDecider, streamId: string, entry: CachedState): Promise<number> {
    let read = 0;
    for (;;) {
      const from = nextRevision(entry.revision);
      const events = await store.readStream(streamId, { fromRevision: from, limit: READ_PAGE });
      let expected = from;
      for (const recorded of events) {
        if (recorded.revision !== expected) throw new Error(`Stream ${streamId} skips from revision ${expected} to ${recorded.revision}`);
        entry.state = decider.evolve(entry.state, readDomainEvent(recorded));
        entry.revision = recorded.revision;
        entry.lastHash = hashOf(recorded);
        expected += 1n;
      }
      read += events.length;
      if (events.length < READ_PAGE) return read;
    }
  }

  return {
    async load(decider, streamId, fresh, expectNew = false) {
      const key = keyOf(decider, streamId);
      const cached = cache.get(key);
      if (cached && !fresh) return { entry: cached, verified: false };
      // Assumed empty, not read: cached only once an append proves it (a conflict makes the next try read).
      if (!cached && expectNew && !fresh) return { entry: emptyState(decider), verified: false };
      const entry = cached ?? (await fromSnapshot(decider, streamId));
      const read = await catchUp(decider, streamId, entry);
      stats.counts.eventsRead += read;
      if (read > 0) stats.metrics.eventsRead(decider.name, read);
      cache.set(key, entry);
      writer.saveIfDue(decider, streamId, entry);
      return { entry, verified: true };
    },

    async isCurrent(streamId, revision) {
      const next = await store.readStream(streamId, { fromRevision: nextRevision(revision), limit: 1 });
      return next.length === 0;
    },

    stored(decider, streamId, entry) {
      cache.set(keyOf(decider, streamId), entry);
      writer.saveIfDue(decider, streamId, entry);
    },

    forget(decider, streamId) {
      cache.delete(keyOf(decider, streamId));
    },

    clear() {
      cache.clear();
    },
  };
}

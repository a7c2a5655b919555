import type { Logger } from '@bank/platform';
import type { SnapshotStore } from '../snapshotStore';
import type { AnyDecider } from './commandJobs';
import type { HandlerStats } from './handlerStats';
import type { CachedState } from './stateCache';

/** Writes a stream's snapshot every `snapshotEvery` events, in the background (a snapshot is only a cache). */
export interface SnapshotWriter {
  /** Writes the state's snapshot when `snapshotEvery` events followed the last one written or read. */
  saveIfDue(decider: AnyDecider, streamId: string, entry: CachedState): void;
  /** Resolves when the snapshots being written are written. */
  flush(): Promise<void>;
}

export function createSnapshotWriter(options: {
  readonly snapshots: SnapshotStore | undefined;
  readonly snapshotEvery: bigint;
  readonly stats: HandlerStats;
  readonly logger: Logger | undefined;
}): SnapshotWriter {
  const { snapshots, stats, logger } = options;
  const writes = new Set<Promise<void>>();

  function save(decider: AnyDecider, streamId: string, entry: CachedState): void {
    const codec = decider.snapshot;
    if (!codec || !snapshots || entry.revision === undefined) return;
    const snapshot = {
      streamId,
      aggregate: decider.name,
      stateVersion: decider.stateVersion,
      revision: entry.revision,
      lastHash: entry.lastHash,
      // Encoded now: the state may be folded further (in place) before the write goes out.
      state: codec.encode(entry.state),
    };
    entry.snapshotRevision = entry.revision;
    const write = snapshots
      .save(snapshot)
      .then(() => {
        stats.counts.snapshotsSaved += 1;
        stats.metrics.snapshot(decider.name, 'saved');
      })
      .catch((error: unknown) => {
        stats.metrics.snapshot(decider.name, 'failed');
        logger?.warn({ err: error, streamId, aggregate: decider.name }, 'could not save a snapshot (it is only a cache)');
      })
      .finally(() => writes.delete(write));
    writes.add(write);
  }

  function due(entry: CachedState): boolean {
    if (entry.revision === undefined) return false;
    return entry.revision - (entry.snapshotRevision ?? -1n) >= options.snapshotEvery;
  }

  return {
    saveIfDue(decider, streamId, entry) {
      if (due(entry)) save(decider, streamId, entry);
    },
    async flush() {
      while (writes.size > 0) await Promise.all([...writes]);
    },
  };
}

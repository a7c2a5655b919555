import { isDomainError, type Decider } from '@bank/domain';
import { isWrongExpectedVersion, type EventStore, type Position, type RecordedEvent } from '@bank/eventstore';
import type { Keyring, Logger } from '@bank/platform';
import { LRUCache } from 'lru-cache';
import { toNewEvents, type CommandContext, type DomainEventLike, type StreamHead } from './commandContext';
import { noCommandMetrics, type CommandMetrics, type CommandOutcome } from './commandMetrics';
import { readDomainEvent } from './readDomainEvent';
import { backoffDelay, DEFAULT_MAX_ATTEMPTS } from './retryPolicy';
import type { SnapshotStore } from './snapshotStore';

/**
 * The one command handler of the bank: every edge (HTTP routes, the transfer process, staff tools) decides and
 * appends through it. Per stream, in this process:
 *
 *   - ONE WRITER. Commands for a stream queue behind each other; the commands waiting while a batch is in flight are
 *     decided together against one state, each seeing the previous ones' events, and appended in one append
 *     (one round trip, one transaction). Concurrent requests to one account therefore never conflict with each
 *     other; optimistic concurrency (the expected revision) still decides between processes.
 *   - A CACHED STATE. The folded state and its revision stay in a bounded LRU cache; a command decides on it
 *     without reading the stream. A stale entry (another process appended) makes the append conflict: the batch
 *     is decided again on a state brought up to date by reading only the events after the cached revision. A
 *     refusal or a no-op decided on a cached state is confirmed by checking that no event followed it (one short
 *     read) before it is answered, so a stale cache never refuses wrongly either.
 *   - SNAPSHOTS. A state not in the cache starts from the stream's persisted snapshot (if any, of the aggregate's
 *     stateVersion) and folds only the events after it; a snapshot is written every `snapshotEvery` events.
 *
 * Deciders must be idempotent (deciding a command whose effects the state already holds yields []), as the
 * domain's are: a retried command then appends nothing, and its deterministic event ids make a blind re-append a
 * no-op at the store.
 */
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
const READ_PAGE = 2_000;

type AnyDecider = Pick<Decider<unknown, DomainEventLike, unknown>, 'name' | 'stateVersion' | 'initialState' | 'evolve' | 'snapshot' | 'fork'>;

interface Entry {
  state: unknown;
  revision: bigint | undefined;
  lastHash: string | null;
  /** Revision of the last snapshot written or read (undefined: none). */
  snapshotRevision: bigint | undefined;
}

interface CommandJob {
  readonly kind: 'command';
  readonly decide: (state: unknown) => readonly DomainEventLike[];
  readonly context: CommandContext;
  readonly commandType: string;
  readonly expectNew: boolean;
  readonly started: number;
  readonly resolve: (result: CommandResult<unknown, DomainEventLike>) => void;
  readonly reject: (error: unknown) => void;
}

interface ReadJob {
  readonly kind: 'read';
  readonly fresh: boolean;
  readonly view: (state: unknown, head: StreamHead) => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

interface StreamQueue {
  readonly key: string;
  readonly decider: AnyDecider;
  readonly streamId: string;
  readonly jobs: Array<CommandJob | ReadJob>;
  running: boolean;
}

interface Decision {
  readonly job: CommandJob;
  readonly events?: readonly DomainEventLike[];
  readonly error?: unknown;
  readonly state: unknown;
}

function nextRevision(revision: bigint | undefined): bigint {
  return revision === undefined ? 0n : revision + 1n;
}

function hashOf(event: RecordedEvent): string | null {
  return typeof event.metadata.hash === 'string' ? event.metadata.hash : null;
}

export function createCommandHandler(options: CommandHandlerOptions): CommandHandler {
  const { store } = options;
  const metrics = options.metrics ?? noCommandMetrics;
  const snapshotEvery = BigInt(options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY);
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const now = options.now ?? (() => new Date());
  const chainKey = options.chainKeys?.current;
  const cache = new LRUCache<string, Entry>({ max: options.cacheSize ?? DEFAULT_CACHE_SIZE });
  const queues = new Map<string, StreamQueue>();
  const snapshotWrites = new Set<Promise<void>>();
  const stats = { commands: 0, eventsRead: 0, conflicts: 0, batches: 0, snapshotsSaved: 0, snapshotsLoaded: 0 };

  const keyOf = (decider: AnyDecider, streamId: string) => `${decider.name}\u0000${streamId}`;

  function saveSnapshot(decider: AnyDecider, streamId: string, entry: Entry): void {
    const codec = decider.snapshot;
    if (!codec || !options.snapshots || entry.revision === undefined) return;
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
    const write = options.snapshots
      .save(snapshot)
      .then(() => {
        stats.snapshotsSaved += 1;
        metrics.snapshot(decider.name, 'saved');
      })
      .catch((error: unknown) => {
        metrics.snapshot(decider.name, 'failed');
        options.logger?.warn({ err: error, streamId, aggregate: decider.name }, 'could not save a snapshot (it is only a cache)');
      })
      .finally(() => snapshotWrites.delete(write));
    snapshotWrites.add(write);
  }

  function snapshotDue(entry: Entry): boolean {
    if (entry.revision === undefined) return false;
    return entry.revision - (entry.snapshotRevision ?? -1n) >= snapshotEvery;
  }

  /** The stream's state: the cached one, or brought up to date (`fresh`) by reading the events after it. */
  async function load(decider: AnyDecider, streamId: string, fresh: boolean, expectNew = false): Promise<{ entry: Entry; verified: boolean }> {
    const key = keyOf(decider, streamId);
    let entry = cache.get(key);
    if (entry && !fresh) return { entry, verified: false };
    // Assumed empty, not read: cached only once an append proves it (a conflict makes the next try read).
    if (!entry && expectNew && !fresh) return { entry: { state: decider.initialState, revision: undefined, lastHash: null, snapshotRevision: undefined }, verified: false };
    if (!entry) {
      entry = { state: decider.initialState, revision: undefined, lastHash: null, snapshotRevision: undefined };
      if (options.snapshots && decider.snapshot) {
        try {
          const snapshot = await options.snapshots.load(decider.name, decider.stateVersion, streamId);
          if (snapshot) {
            entry = { state: decider.snapshot.decode(snapshot.state), revision: snapshot.revision, lastHash: snapshot.lastHash, snapshotRevision: snapshot.revision };
            stats.snapshotsLoaded += 1;
            metrics.snapshot(decider.name, 'loaded');
          }
        } catch (error) {
          // A snapshot is only a cache: fold from the log instead.
          metrics.snapshot(decider.name, 'failed');
          options.logger?.warn({ err: error, streamId, aggregate: decider.name }, 'could not read a snapshot; folding the stream from its start');
        }
      }
    }
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
      if (events.length < READ_PAGE) break;
    }
    stats.eventsRead += read;
    if (read > 0) metrics.eventsRead(decider.name, read);
    cache.set(key, entry);
    if (snapshotDue(entry)) saveSnapshot(decider, streamId, entry);
    return { entry, verified: true };
  }

  /** True when no event follows `revision` in the stream (the state decided on was current). */
  async function isCurrent(streamId: string, revision: bigint | undefined): Promise<boolean> {
    const next = await store.readStream(streamId, { fromRevision: nextRevision(revision), limit: 1 });
    return next.length === 0;
  }

  function finish(job: CommandJob, decider: AnyDecider, outcome: CommandOutcome): void {
    stats.commands += 1;
    metrics.command(decider.name, job.commandType, outcome, (performance.now() - job.started) / 1000);
  }

  /** Settles a decision that appended nothing (a refusal, or nothing to do). */
  function settleUnappended(decision: Decision, decider: AnyDecider, head: StreamHead): void {
    const { job } = decision;
    if (decision.error !== undefined) {
      finish(job, decider, isDomainError(decision.error) ? 'refused' : 'error');
      job.reject(decision.error);
      return;
    }
    finish(job, decider, 'unchanged');
    job.resolve({ events: [], position: undefined, revision: head.revision, state: decision.state, duplicate: false });
  }

  async function runBatch(queue: StreamQueue, batch: readonly CommandJob[]): Promise<void> {
    const { decider, streamId, key } = queue;
    stats.batches += 1;
    metrics.batch(decider.name, batch.length);
    let pending = batch;
    let lastConflict: unknown;
    /** A read or an append failed for a reason other than a conflict: every job of the batch fails with it. */
    const failAll = (error: unknown) => {
      cache.delete(key);
      for (const job of pending) {
        finish(job, decider, 'error');
        job.reject(error);
      }
    };
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt)));
      if (attempt > maxAttempts) {
        for (const job of pending) {
          finish(job, decider, 'conflict');
          job.reject(lastConflict);
        }
        return;
      }
      let loaded: { entry: Entry; verified: boolean };
      try {
        loaded = await load(decider, streamId, attempt > 1, pending.every((job) => job.expectNew));
      } catch (error) {
        failAll(error);
        return;
      }
      const { entry } = loaded;
      const head: StreamHead = { revision: entry.revision, lastHash: entry.lastHash };

      // Decide each command on the state the previous ones left: a fork for aggregates that fold in place, so the
      // cached state changes only once the events are stored.
      let state = decider.fork ? decider.fork(entry.state) : entry.state;
      const decisions: Decision[] = [];
      const toAppend: DomainEventLike[][] = [];
      let unappended = false;
      for (const job of pending) {
        try {
          const events = job.decide(state);
          if (events.length > 0) {
            for (const event of events) state = decider.evolve(state, event);
            toAppend.push([...events]);
          } else unappended = true;
          decisions.push({ job, events, state });
        } catch (error) {
          unappended = true;
          decisions.push({ job, error, state });
        }
      }
      const speculative = toAppend.length > 0;

      try {
        // A refusal or a no-op on a cached state stands only if the state was current.
        if (unappended && !loaded.verified && !(await isCurrent(streamId, head.revision))) continue;
        if (!speculative) {
          for (const decision of decisions) settleUnappended(decision, decider, head);
          return;
        }

        let after = head;
        const newEvents = decisions.flatMap((decision) => {
          if (!decision.events || decision.events.length === 0) return [];
          const wrapped = toNewEvents(streamId, decision.events, after, decision.job.context, now(), chainKey);
          after = { revision: (after.revision ?? -1n) + BigInt(wrapped.length), lastHash: String(wrapped.at(-1)!.metadata!.hash) };
          return wrapped;
        });
        let result;
        try {
          result = await store.append(streamId, newEvents, head.revision === undefined ? 'no_stream' : head.revision);
        } catch (error) {
          if (!isWrongExpectedVersion(error)) throw error;
          // The cached state is untouched (decided on a fork, or evolved into new objects): the next try reads only
          // the events after its revision.
          stats.conflicts += 1;
          metrics.conflict(decider.name);
          lastConflict = error;
          continue;
        }

        if (result.nextExpectedRevision === after.revision) {
          if (decider.fork) {
            for (const events of toAppend) for (const event of events) entry.state = decider.evolve(entry.state, event);
          } else entry.state = state;
          entry.revision = after.revision;
          entry.lastHash = after.lastHash;
          cache.set(key, entry);
          if (snapshotDue(entry)) saveSnapshot(decider, streamId, entry);
          for (const decision of decisions) {
            if (!decision.events || decision.events.length === 0) {
              settleUnappended(decision, decider, head);
              continue;
            }
            finish(decision.job, decider, 'appended');
            decision.job.resolve({ events: decision.events, position: result.position, revision: after.revision, state: decision.state, duplicate: false });
          }
          return;
        }

        // The store already held (some of) these event ids: a retried command. Its answer is the stored result; the
        // state assumed for the others no longer holds, so they are decided again on the stream as it is.
        cache.delete(key);
        if (decisions.filter((d) => d.events && d.events.length > 0).length > 1) {
          options.logger?.error({ streamId, aggregate: decider.name, expected: after.revision, stored: result.nextExpectedRevision }, 'a batch append found some of its events already stored');
        }
        const retry: CommandJob[] = [];
        for (const decision of decisions) {
          if (decision.events && decision.events.length > 0) {
            finish(decision.job, decider, 'unchanged');
            decision.job.resolve({ events: [], position: result.position, revision: result.nextExpectedRevision, state: decision.state, duplicate: true });
          } else retry.push(decision.job);
        }
        pending = retry;
      } catch (error) {
        failAll(error);
        return;
      }
    }
  }

  async function runRead(queue: StreamQueue, job: ReadJob): Promise<void> {
    try {
      const { entry } = await load(queue.decider, queue.streamId, job.fresh);
      job.resolve(job.view(entry.state, { revision: entry.revision, lastHash: entry.lastHash }));
    } catch (error) {
      cache.delete(queue.key);
      job.reject(error);
    }
  }

  async function drain(queue: StreamQueue): Promise<void> {
    queue.running = true;
    try {
      while (queue.jobs.length > 0) {
        const first = queue.jobs[0]!;
        if (first.kind === 'read') {
          queue.jobs.shift();
          await runRead(queue, first);
          continue;
        }
        const batch: CommandJob[] = [];
        while (batch.length < maxBatch && queue.jobs[0]?.kind === 'command') batch.push(queue.jobs.shift() as CommandJob);
        await runBatch(queue, batch);
      }
    } finally {
      queue.running = false;
      queues.delete(queue.key);
    }
  }

  function enqueue(decider: AnyDecider, streamId: string, job: CommandJob | ReadJob): void {
    const key = keyOf(decider, streamId);
    let queue = queues.get(key);
    if (!queue) {
      queue = { key, decider, streamId, jobs: [], running: false };
      queues.set(key, queue);
    }
    queue.jobs.push(job);
    if (!queue.running) void drain(queue);
  }

  return {
    execute<C, E extends DomainEventLike, S>(request: CommandRequest<C, E, S>): Promise<CommandResult<S, E>> {
      return new Promise<CommandResult<S, E>>((resolve, reject) => {
        enqueue(request.decider as unknown as AnyDecider, request.streamId, {
          kind: 'command',
          decide: request.decide as (state: unknown) => readonly DomainEventLike[],
          context: request.context,
          commandType: request.commandType,
          expectNew: request.expectNew ?? false,
          started: performance.now(),
          resolve: resolve as (result: CommandResult<unknown, DomainEventLike>) => void,
          reject,
        });
      });
    },

    read(decider, streamId, view, readOptions = {}) {
      return new Promise((resolve, reject) => {
        enqueue(decider as unknown as AnyDecider, streamId, {
          kind: 'read',
          fresh: readOptions.fresh ?? true,
          view: view as (state: unknown, head: StreamHead) => unknown,
          resolve: resolve as (value: unknown) => void,
          reject,
        });
      });
    },

    clearCache() {
      cache.clear();
    },

    stats: () => ({ ...stats }),

    async flush() {
      while (snapshotWrites.size > 0) await Promise.all([...snapshotWrites]);
    },
  };
}

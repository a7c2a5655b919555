import { toNewEvents, type DomainEventLike, type StreamHead } from './commandContext';
import { noCommandMetrics } from './commandMetrics';
import { createBatchRunner } from './commandHandling/batchRunner';
import type { AnyDecider, ReadJob } from './commandHandling/commandJobs';
import {
  DEFAULT_CACHE_SIZE,
  DEFAULT_MAX_BATCH,
  DEFAULT_SNAPSHOT_EVERY,
  type CommandHandler,
  type CommandHandlerOptions,
  type CommandRequest,
  type CommandResult,
} from './commandHandling/commandHandlerTypes';
import { createHandlerStats } from './commandHandling/handlerStats';
import { createSnapshotWriter } from './commandHandling/snapshotWriter';
import { createStateCache } from './commandHandling/stateCache';
import { createStreamQueues, type StreamQueue } from './commandHandling/streamQueues';
import { DEFAULT_MAX_ATTEMPTS } from './retryPolicy';

export * from './commandHandling/commandHandlerTypes';

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
 *
 * The parts, each in its own file under commandHandling/: streamQueues (one writer per stream, batching),
 * batchDecision (deciding a batch on one state), batchRunner (the append and the conflict retry), stateCache (the
 * LRU of folded states, loading from snapshots), snapshotWriter (writing them), handlerStats (counters and metrics).
 */
export function createCommandHandler(options: CommandHandlerOptions): CommandHandler {
  const stats = createHandlerStats(options.metrics ?? noCommandMetrics);
  const writer = createSnapshotWriter({ snapshots: options.snapshots, snapshotEvery: BigInt(options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY), stats, logger: options.logger });
  const cache = createStateCache({ store: options.store, snapshots: options.snapshots, cacheSize: options.cacheSize ?? DEFAULT_CACHE_SIZE, writer, stats, logger: options.logger });
  const now = options.now ?? (() => new Date());
  const runBatch = createBatchRunner({
    store: options.store,
    cache,
    stats,
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    now,
    chainKey: options.chainKeys?.current,
    logger: options.logger,
  });

  async function runRead(queue: StreamQueue, job: ReadJob): Promise<void> {
    try {
      const { entry } = await cache.load(queue.decider, queue.streamId, job.fresh);
      job.resolve(job.view(entry.state, { revision: entry.revision, lastHash: entry.lastHash }));
    } catch (error) {
      cache.forget(queue.decider, queue.streamId);
      job.reject(error);
    }
  }

  const queues = createStreamQueues({ maxBatch: options.maxBatch ?? DEFAULT_MAX_BATCH, runBatch, runRead });

  return {
    execute<C, E extends DomainEventLike, S>(request: CommandRequest<C, E, S>): Promise<CommandResult<S, E>> {
      return new Promise<CommandResult<S, E>>((resolve, reject) => {
        queues.enqueue(request.decider as unknown as AnyDecider, request.streamId, {
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
        queues.enqueue(decider as unknown as AnyDecider, streamId, {
          kind: 'read',
          fresh: readOptions.fresh ?? true,
          view: view as (state: unknown, head: StreamHead) => unknown,
          resolve: resolve as (value: unknown) => void,
          reject,
        });
      });
    },

    wrapEvents(streamId, events, head, context) {
      return toNewEvents(streamId, events, head, context, now(), options.chainKeys?.current);
    },

    clearCache() {
      cache.clear();
    },

    stats: () => stats.snapshot(),

    flush: () => writer.flush(),
  };
}

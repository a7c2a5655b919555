import { isDomainError } from '@bank/domain';
import { isWrongExpectedVersion, type EventStore } from '@bank/eventstore';
import type { KeyringKey, Logger } from '@bank/platform';
import type { StreamHead } from '../commandContext';
import { backoffDelay } from '../retryPolicy';
import { appends, decideBatch, eventsToAppend, type Decision } from './batchDecision';
import type { AnyDecider, CommandJob } from './commandJobs';
import type { HandlerStats } from './handlerStats';
import type { LoadedState, StateCache } from './stateCache';
import type { StreamQueue } from './streamQueues';

export interface BatchRunnerDeps {
  readonly store: EventStore;
  readonly cache: StateCache;
  readonly stats: HandlerStats;
  readonly maxAttempts: number;
  readonly now: () => Date;
  readonly chainKey: KeyringKey | undefined;
  readonly logger: Logger | undefined;
}

/**
 * Runs one batch of a stream's commands: decided together on the (cached) state, appended in one append with the
 * expected revision. When another process moved the stream (a conflict), or a refusal or no-op was decided on a
 * cached state that turns out stale, the batch is decided again on the state brought up to date, after a growing
 * random wait (retryPolicy), at most `maxAttempts` times.
 */
export function createBatchRunner(deps: BatchRunnerDeps): (queue: StreamQueue, batch: readonly CommandJob[]) => Promise<void> {
  const { store, cache, stats } = deps;

  /** Settles a decision that appended nothing (a refusal, or nothing to do). */
  function settleUnappended(decision: Decision, decider: AnyDecider, head: StreamHead): void {
    const { job } = decision;
    if (decision.error !== undefined) {
      stats.finish(job, decider, isDomainError(decision.error) ? 'refused' : 'error');
      job.reject(decision.error);
      return;
    }
    stats.finish(job, decider, 'unchanged');
    job.resolve({ events: [], position: undefined, revision: head.revision, state: decision.state, duplicate: false });
  }

  return async function runBatch(queue, batch) {
    const { decider, streamId } = queue;
    stats.counts.batches += 1;
    stats.metrics.batch(decider.name, batch.length);
    let pending = batch;
    let lastConflict: unknown;
    /** A read or an append failed for a reason other than a conflict: every job of the batch fails with it. */
    const failAll = (error: unknown) => {
      cache.forget(decider, streamId);
      for (const job of pending) {
        stats.finish(job, decider, 'error');
        job.reject(error);
      }
    };
    for (let attempt = 1; pending.length > 0; attempt += 1) {
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt)));
      if (attempt > deps.maxAttempts) {
        for (const job of pending) {
          stats.finish(job, decider, 'conflict');
          job.reject(lastConflict);
        }
        return;
      }
      let loaded: LoadedState;
      try {
        loaded = await cache.load(decider, streamId, attempt > 1, pending.every((job) => job.expectNew));
      } catch (error) {
        failAll(error);
        return;
      }
      const { entry } = loaded;
      const head: StreamHead = { revision: entry.revision, lastHash: entry.lastHash };
      const { decisions, toAppend, unappended, state } = decideBatch(decider, entry.state, pending);

      try {
        // A refusal or a no-op on a cached state stands only if the state was current.
        if (unappended && !loaded.verified && !(await cache.isCurrent(streamId, head.revision))) continue;
        if (toAppend.length === 0) {
          for (const decision of decisions) settleUnappended(decision, decider, head);
          return;
        }

        const { newEvents, after } = eventsToAppend(streamId, decisions, head, deps.now, deps.chainKey);
        let result;
        try {
          result = await store.append(streamId, newEvents, head.revision === undefined ? 'no_stream' : head.revision);
        } catch (error) {
          if (!isWrongExpectedVersion(error)) throw error;
          // The cached state is untouched (decided on a fork, or evolved into new objects): the next try reads only
          // the events after its revision.
          stats.counts.conflicts += 1;
          stats.metrics.conflict(decider.name);
          lastConflict = error;
          continue;
        }

        // A duplicate whose revision happens to match (decided on a stale state) is not this try's events: their hashes
        // were computed here, the stored ones by the writer that stored them, so they must never reach the cache.
        if (result.nextExpectedRevision === after.revision && result.duplicate !== true) {
          if (decider.fork) {
            for (const events of toAppend) for (const event of events) entry.state = decider.evolve(entry.state, event);
          } else entry.state = state;
          entry.revision = after.revision;
          entry.lastHash = after.lastHash;
          cache.stored(decider, streamId, entry);
          for (const decision of decisions) {
            if (!appends(decision)) {
              settleUnappended(decision, decider, head);
              continue;
            }
            stats.finish(decision.job, decider, 'appended');
            decision.job.resolve({ events: decision.events ?? [], position: result.position, revision: after.revision, state: decision.state, duplicate: false });
          }
          return;
        }

        // The store already held (some of) these event ids: a retried command. Its answer is the stored result; the
        // state assumed for the others no longer holds, so they are decided again on the stream as it is.
        cache.forget(decider, streamId);
        if (decisions.filter(appends).length > 1) {
          deps.logger?.error({ streamId, aggregate: decider.name, expected: after.revision, stored: result.nextExpectedRevision }, 'a batch append found some of its events already stored');
        }
        const retry: CommandJob[] = [];
        for (const decision of decisions) {
          if (appends(decision)) {
            stats.finish(decision.job, decider, 'unchanged');
            decision.job.resolve({ events: [], position: result.position, revision: result.nextExpectedRevision, state: decision.state, duplicate: true });
          } else retry.push(decision.job);
        }
        pending = retry;
      } catch (error) {
        failAll(error);
        return;
      }
    }
  };
}

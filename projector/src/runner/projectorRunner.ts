import type { EventStore, RecordedEvent } from '@bank/eventstore';
import { acquireLeaderLock, sleep } from '@bank/platform';
import { PROJECTOR_LOCK_CLASS } from '../locks/advisoryLocks';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { CHECKPOINT_CHANNEL, CheckpointMovedError, DEFAULT_PROJECTOR_NAME, positionOrUndefined, readCheckpoint } from '../checkpoint/checkpointStore';
import { createProjectorMetrics, type ProjectorMetrics } from '../metrics/projectorMetrics';
import { defaultProjections } from '../projections/defaultProjections';
import type { Projection } from '../projections/projection';
import { migrateReadModels } from '../schema/migrateReadModels';
import { READ_MODEL_SCHEMA } from '../schema/readModelSchema';
import { readModelTables } from '../schema/readModelTables';
import { applyBatch, createBatchTarget } from './applyBatch';
import { EventBuffer } from './eventBuffer';
import { EventApplyError, EventDispatcher, isTransientDatabaseError } from './eventDispatcher';
import { sampleLag } from './lagSampler';
import { checkOut } from './pooledClient';
import { silentProjectorLogger, type ProjectorLogger } from './projectorLogger';

export interface ProjectorOptions {
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly logger?: ProjectorLogger;
  /** Projector and checkpoint name; instances with the same name share one leader lock. Default 'main'. */
  readonly name?: string;
  /** The read-model schema written. Default 'rm'. */
  readonly schema?: string;
  readonly projections?: readonly Projection[];
  /**
   * Most events per batch transaction. A batch takes every event that has arrived, up to this: a few when caught up
   * (low latency), this many when behind (throughput). Default 5,000.
   */
  readonly batchSize?: number;
  /** How often a standby tries to take over. Default 500 ms. */
  readonly leaderRetryMs?: number;
  /** How often lag metrics are sampled. Default 1000 ms. */
  readonly lagSampleMs?: number;
  /** Metrics to update; by default new ones on `registry` (or a new registry). */
  readonly metrics?: ProjectorMetrics;
  readonly registry?: Registry;
  /**
   * Commit each batch only once its WAL is flushed to disk. Default false: the read models are derived from the
   * log, and a server crash that loses the last batches loses their checkpoint with them, so they are applied
   * again (docs/projections.md, "Batches"); not waiting for the flush keeps its latency out of the lag.
   */
  readonly waitForFlush?: boolean;
  /** Run the read-model migrations first. Default true. */
  readonly migrate?: boolean;
  /** Called once when the projector stops on an event it cannot apply. */
  readonly onFatal?: (error: Error) => void;
}

export type ProjectorState = 'starting' | 'standby' | 'leader' | 'stopped' | 'failed';

export interface ProjectorStatus {
  readonly state: ProjectorState;
  /** Formatted position of the last batch this instance applied (undefined before its first). */
  readonly position: string | undefined;
  readonly error: Error | undefined;
}

export interface ProjectorHandle {
  /** Resolves when the schema is migrated and the projector runs (as the leader or a standby). */
  readonly ready: Promise<void>;
  /** Resolves when this instance, as the leader, has applied everything the log held when it caught up. */
  readonly caughtUp: Promise<void>;
  /** Resolves when the projector has stopped: with the error when it stopped on an event it cannot apply. */
  readonly done: Promise<{ readonly error?: Error }>;
  readonly metrics: ProjectorMetrics;
  status(): ProjectorStatus;
  /** Stops applying (finishing the batch in flight), releases the leader lock. */
  stop(): Promise<void>;
}

/** The default most events per batch (see ProjectorOptions.batchSize). */
export const DEFAULT_MAX_BATCH = 5_000;

class Deferred<T> {
  resolve!: (value: T) => void;
  reject!: (error: unknown) => void;
  readonly promise = new Promise<T>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });
  constructor() {
    this.promise.catch(() => undefined);
  }
}

/**
 * Starts the projector: migrate, win the leader lock (or wait as a standby), then follow the log from the stored
 * checkpoint, catch-up then live, applying events in batches (each batch with its checkpoint in one transaction).
 */
export function startProjector(options: ProjectorOptions): ProjectorHandle {
  const name = options.name ?? DEFAULT_PROJECTOR_NAME;
  const schema = options.schema ?? READ_MODEL_SCHEMA;
  const logger = options.logger ?? silentProjectorLogger;
  const batchSize = options.batchSize ?? DEFAULT_MAX_BATCH;
  const metrics = options.metrics ?? createProjectorMetrics(options.registry);
  const labels = { projector: name };
  const tables = readModelTables(schema);
  const target = createBatchTarget({
    tables,
    name,
    dispatcher: new EventDispatcher(options.projections ?? defaultProjections, logger),
    applyLock: true,
    notifyChannel: schema === READ_MODEL_SCHEMA ? CHECKPOINT_CHANNEL : undefined,
    asyncCommit: options.waitForFlush !== true,
  });
  const stopping = new AbortController();
  const ready = new Deferred<void>();
  const caughtUp = new Deferred<void>();
  let state: ProjectorState = 'starting';
  let position: string | undefined;
  let failure: Error | undefined;
  metrics.leader.set(labels, 0);
  metrics.stopped.set(labels, 0);

  /** Follows the log from `checkpoint` until stopped, leadership is lost, or an error. */
  async function follow(client: pg.ClientBase, checkpoint: string | null, lost: AbortSignal): Promise<void> {
    const buffer = new EventBuffer(batchSize * 2);
    let caughtUpAt: number | undefined;
    let applied = 0;
    let subscriptionError: unknown;
    const checkCaughtUp = () => {
      if (caughtUpAt !== undefined && applied >= caughtUpAt) caughtUp.resolve();
    };
    const close = () => buffer.close();
    stopping.signal.addEventListener('abort', close);
    lost.addEventListener('abort', close);
    const subscription = options.store.subscribe((event: RecordedEvent) => buffer.push(event), {
      after: positionOrUndefined(checkpoint),
      onCaughtUp: () => {
        caughtUpAt = buffer.pushed;
        checkCaughtUp();
      },
      onError: (error) => {
        subscriptionError = error;
        buffer.close();
      },
    });
    const lagTimer = setInterval(() => {
      void sampleLag(options.store, position ?? checkpoint, metrics, labels).catch(() => undefined);
    }, options.lagSampleMs ?? 1000);
    lagTimer.unref();
    let expected = checkpoint;
    try {
      for (;;) {
        const batch = await buffer.take(batchSize);
        if (batch.length === 0 || stopping.signal.aborted || lost.aborted) {
          if (subscriptionError !== undefined && !stopping.signal.aborted) throw subscriptionError;
          return;
        }
        const started = performance.now();
        const result = await applyBatch(client, target, batch, expected);
        const committed = Date.now();
        expected = result.position;
        position = result.position;
        applied += batch.length;
        const last = batch.at(-1)!;
        metrics.batches.inc(labels);
        metrics.batchEvents.observe(labels, batch.length);
        metrics.batchSeconds.observe(labels, (performance.now() - started) / 1000);
        metrics.eventsApplied.inc(labels, result.events - result.unknown);
        if (result.unknown) metrics.unknownEvents.inc(labels, result.unknown);
        metrics.appliedPosition.set(labels, Number(last.position.prepare));
        for (const event of batch) metrics.applyDelaySeconds.observe(labels, Math.max(0, committed - event.created.getTime()) / 1000);
        checkCaughtUp();
      }
    } finally {
      clearInterval(lagTimer);
      stopping.signal.removeEventListener('abort', close);
      lost.removeEventListener('abort', close);
      buffer.close();
      await subscription.stop();
    }
  }

  /** As the leader: follow the log, restarting from the stored checkpoint after transient failures. */
  async function lead(lost: AbortSignal): Promise<void> {
    let failures = 0;
    while (!stopping.signal.aborted && !lost.aborted) {
      const pooled = await checkOut(options.pool).catch((error: unknown) => error as Error);
      if (pooled instanceof Error) {
        failures += 1;
        metrics.failures.inc({ ...labels, kind: 'transient' });
        logger.warn({ err: pooled, failures }, 'projector cannot connect; retrying');
        await sleep(Math.min(5_000, 100 * 2 ** failures), stopping.signal);
        continue;
      }
      const { client } = pooled;
      let broken: Error | undefined;
      try {
        const checkpoint = await readCheckpoint(client, tables, name);
        position = checkpoint ?? undefined;
        logger.info({ projector: name, schema, checkpoint }, 'projector following the log');
        await follow(client, checkpoint, lost);
        failures = 0;
      } catch (error) {
        if (error instanceof CheckpointMovedError) {
          metrics.checkpointResyncs.inc(labels);
          logger.info({ projector: name, expected: error.expected, actual: error.actual }, 'checkpoint moved (rebuild swap or another instance); resuming from it');
          continue;
        }
        if (error instanceof EventApplyError || !isTransientDatabaseError(error)) throw error;
        broken = error as Error;
        failures += 1;
        metrics.failures.inc({ ...labels, kind: 'transient' });
        logger.warn({ err: error, failures }, 'projector batch failed on a transient error; retrying from the checkpoint');
        await sleep(Math.min(5_000, 100 * 2 ** failures), stopping.signal);
      } finally {
        pooled.release(broken);
      }
    }
  }

  async function run(): Promise<{ error?: Error }> {
    try {
      if (options.migrate !== false) await migrateReadModels(options.pool, schema);
      ready.resolve();
    } catch (error) {
      ready.reject(error);
      caughtUp.reject(error);
      state = 'failed';
      failure = error as Error;
      return { error: failure };
    }
    while (!stopping.signal.aborted) {
      const session = await acquireLeaderLock({
        connection: options.pool.options,
        // The class of every projector lock (locks/advisoryLocks.ts): the key is `leader:<name>`, as before.
        lockClass: PROJECTOR_LOCK_CLASS,
        name,
        retryMs: options.leaderRetryMs ?? 500,
        signal: stopping.signal,
        onStandby: () => {
          state = 'standby';
          logger.info({ projector: name }, 'projector waiting as a standby');
        },
      });
      if (!session) break;
      state = 'leader';
      metrics.leader.set(labels, 1);
      logger.info({ projector: name }, 'projector is the leader');
      try {
        await lead(session.lost);
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
        state = 'failed';
        metrics.failures.inc({ ...labels, kind: 'apply' });
        metrics.stopped.set(labels, 1);
        logger.error({ err: failure, projector: name }, 'projector stopped: an event cannot be applied');
        caughtUp.reject(failure);
        options.onFatal?.(failure);
        return { error: failure };
      } finally {
        metrics.leader.set(labels, 0);
        await session.release();
      }
      if (session.lost.aborted && !stopping.signal.aborted) {
        state = 'standby';
        logger.warn({ projector: name }, 'projector lost its leader lock; waiting to take it again');
      }
    }
    state = 'stopped';
    return {};
  }

  const done = run();
  return {
    ready: ready.promise,
    caughtUp: caughtUp.promise,
    done,
    metrics,
    status: () => ({ state, position, error: failure }),
    async stop() {
      stopping.abort();
      await done;
    },
  };
}

import { createEventStore } from '@bank/eventstore';
import { createLogger, createPool, createRedis, ensureDatabase, type Config } from '@bank/platform';
import { createProjectionReader, startProjector, verifyReadModels, type ProjectorHandle } from '@bank/projector';
import { parseWorkerSettings, startWorker, type RunningWorker } from '@bank/worker';
import { Registry } from 'prom-client';
import type { AppDeps } from './appDeps';
import { ensureFileSchema } from './features/files/fileStore';
import { createApiMetrics } from './operations/apiMetrics';
import { parseRateLimitConfig } from './rateLimitConfig';

export interface BankRuntime {
  readonly deps: AppDeps;
  readonly projector: ProjectorHandle;
  readonly worker: RunningWorker | undefined;
  /** Stops the worker and the projector, closes the store, Redis and the pool. */
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  /** Run the transfer worker in this process (default true). */
  readonly worker?: boolean;
  readonly env?: Record<string, string | undefined>;
}

/**
 * Everything `npm start` runs in one process besides the HTTP server: the database (created when missing), the
 * event store (EventStoreDB when EVENTSTORE_URL is set, else PostgreSQL), Redis, the file store, the projector,
 * the worker, and the AppDeps the routers use.
 */
export async function startBankRuntime(config: Config, options: RuntimeOptions = {}): Promise<BankRuntime> {
  const env = options.env ?? process.env;
  const logger = createLogger('bank', config.LOG_LEVEL);
  await ensureDatabase(config.DATABASE_URL);
  const pool = createPool(config.DATABASE_URL, 20);
  const store = await createEventStore(config, { pool, logger: logger.child({ component: 'eventstore' }) });
  const redis = createRedis(config.REDIS_URL);
  redis.on('error', (error) => logger.warn({ err: error }, 'Redis connection error (retrying)'));
  await ensureFileSchema(pool);

  const projectorRegistry = new Registry();
  const projector = startProjector({ pool, store, logger: logger.child({ component: 'projector' }), registry: projectorRegistry });
  await projector.ready;
  const projection = createProjectionReader(pool);

  const workerRegistry = new Registry();
  const worker =
    options.worker === false
      ? undefined
      : await startWorker({
          config: { ...parseWorkerSettings(env), REDIS_URL: config.REDIS_URL, REDIS_PREFIX: config.REDIS_PREFIX, SETTLEMENT_DELAY_MS: config.SETTLEMENT_DELAY_MS, AUDIT_CHECK_EVERY_MS: config.AUDIT_CHECK_EVERY_MS },
          store,
          pool,
          logger: logger.child({ component: 'worker' }),
          registry: workerRegistry,
          // The periodic audit (AUDIT_CHECK_EVERY_MS): every balance in the read models against the replay of its events.
          verifyReadModels: () => verifyReadModels({ pool, store }),
        });

  const deps: AppDeps = {
    config,
    logger: logger.child({ component: 'api' }),
    pool,
    store,
    redis,
    projection,
    limits: parseRateLimitConfig(env),
    metrics: createApiMetrics({ processMetrics: true }),
    extraMetricRegistries: [projectorRegistry, workerRegistry],
  };

  return {
    deps,
    projector,
    worker,
    async stop() {
      await worker?.stop();
      await projector.stop();
      await projection.close();
      redis.disconnect();
      await store.close();
      await pool.end();
    },
  };
}

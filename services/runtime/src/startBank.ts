import type { Server } from 'node:http';
import { apiTransferSettings, createApp, createApiMetrics, createAppBooks, ensureFileSchema, ensureFirstAdmin, parseRateLimitConfig, startMetricsServer, verifySecret, type AppDeps, type MetricsServer } from '@bank/api';
import { loadBankKeys } from './bankKeys';
import { createBankCommands, type CommandHandler } from '@bank/commands';
import { createEventStore, type EventStore } from '@bank/eventstore';
import { parseCheckpointSettings, startCheckpointWriter, type CheckpointWriterHandle } from '@bank/integrity';
import { createBusinessCalendar, parseBooksSettings } from '@bank/books';
import { checkServices, systemClock, createLogger, createPool, createRedis, ensureDatabase, redactUrl, ServicesUnavailableError, ShutdownSteps, warnAboutRedisDurability, watchRedis, type Config, type Logger } from '@bank/platform';
import { createProjectionReader, startProjector, type ProjectionReader, type ProjectorHandle } from '@bank/projector';
import { auditReadModels } from '@bank/audit';
import { createAchTransport, parseAchSettings } from '@bank/ach';
import { createTransferSignals, parseTransferSettings, type TransferSignals } from '@bank/transfers';
import { startWorker, type RunningWorker } from '@bank/worker';
import type pg from 'pg';
import { Registry } from 'prom-client';

/**
 * The composition root: one process of the bank with the roles it is given —
 *   api        the HTTP API and the web app (any number of processes, behind one port or a load balancer);
 *   projector  the read models (one active bank-wide by its lock; others wait as standbys);
 *   worker     the transfer process (one active by its lock), settlement and maintenance jobs (shared by all).
 * `npm start` runs them all in one process by default, or as a cluster of processes (cluster.ts). Whatever the
 * roles, a process has ONE command handler, shared by every part of it (one writer per stream per process).
 */
export interface BankRoles {
  readonly api: boolean;
  readonly projector: boolean;
  readonly worker: boolean;
}

/** application_name of the read pool's connections (DATABASE_READ_URL): how pg_stat_activity on a replica shows them. */
export const READ_POOL_APPLICATION_NAME = 'bank-read';

export const ALL_ROLES: BankRoles = { api: true, projector: true, worker: true };

export interface RunningBank {
  readonly roles: BankRoles;
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly commands: CommandHandler;
  readonly signals: TransferSignals;
  readonly projector: ProjectorHandle | undefined;
  readonly worker: RunningWorker | undefined;
  /** The writer of the event log's signed checkpoints (role worker). */
  readonly checkpointWriter: CheckpointWriterHandle | undefined;
  /** The API's dependencies and its listening server (role api). */
  readonly deps: AppDeps | undefined;
  readonly server: Server | undefined;
  /**
   * Stops gracefully: the server stops accepting connections and lets requests in flight finish (at most
   * `drainMs`), then the worker (letting transfers in flight finish) and the projector stop, then the connections close.
   */
  stop(drainMs?: number): Promise<void>;
  /** The step of stop() running now ("worker: ach"), for a process whose stop passed its deadline (main.ts). */
  stopStep(): string | undefined;
}

export interface StartBankOptions {
  readonly roles?: BankRoles;
  readonly env?: Record<string, string | undefined>;
  readonly logger?: Logger;
  /** Listen on this port (role api); default config.PORT. 0 = a free port. */
  readonly port?: number;
}

export async function startBank(config: Config, options: StartBankOptions = {}): Promise<RunningBank> {
  const roles = options.roles ?? ALL_ROLES;
  const env = options.env ?? process.env;
  const logger = options.logger ?? createLogger('bank', config.LOG_LEVEL);
  const transferSettings = parseTransferSettings(env);
  const achSettings = parseAchSettings({ ...env, NODE_ENV: config.NODE_ENV });
  // Read once: manual business dates are refused here in production, before anything connects.
  const booksSettings = parseBooksSettings({ ...env, NODE_ENV: config.NODE_ENV });
  // Keys first, so that a production start without its secrets stops before connecting to anything.
  const { apiKeys, authSettings, pinKeys, chainKeys, checkpointKeys } = loadBankKeys(config, env, logger, roles);
  const checkpointSettings = parseCheckpointSettings(config, env);
  // Before connecting for good: a service that cannot be reached stops the start with a plain message (main.ts).
  const problems = await checkServices({ databaseUrl: config.DATABASE_URL, ...(roles.api || roles.worker ? { redisUrl: config.REDIS_URL } : {}) });
  if (problems.length > 0) throw new ServicesUnavailableError(problems);
  await ensureDatabase(config.DATABASE_URL);
  // A server that stops answering (a partition): the pool destroys the connections stalled on it (stalledConnections.ts).
  const onStalledDestroyed = (pool: string) => (count: number) =>
    logger.warn({ pool, count }, 'PostgreSQL did not answer a probe: destroyed the connections waiting on it (their requests answer 503)');
  const pool = createPool(config.DATABASE_URL, 20, { onStalledDestroyed: onStalledDestroyed('primary') });
  const store = await createEventStore(config, { pool, logger: logger.child({ component: 'eventstore' }) });
  const commandRegistry = new Registry();
  const commands = await createBankCommands({ pool, store, config, logger: logger.child({ component: 'commands' }), registry: commandRegistry, chainKeys });
  const signals = createTransferSignals({ pool, logger });
  const registries: Registry[] = [commandRegistry];
  // One business calendar per process, shared by the API's money commands and the worker's.
  const calendar = createBusinessCalendar({ mode: booksSettings.BUSINESS_DATE_MODE, commands, clock: systemClock, startDate: booksSettings.BUSINESS_DATE_START });

  let projector: ProjectorHandle | undefined;
  if (roles.projector) {
    const registry = new Registry();
    registries.push(registry);
    projector = startProjector({ pool, store, logger: logger.child({ component: 'projector' }), registry });
    await projector.ready;
  }

  let worker: RunningWorker | undefined;
  if (roles.worker) {
    const registry = new Registry();
    registries.push(registry);
    worker = await startWorker({
      config: { ...config, ...transferSettings, ...booksSettings },
      store,
      pool,
      commands,
      signals,
      calendar,
      logger: logger.child({ component: 'worker' }),
      registry,
      ach: { transport: createAchTransport(achSettings, config.DATA_DIR, logger.child({ component: 'ach' })), cutoffs: achSettings.ACH_CUTOFFS, pollEveryMs: achSettings.ACH_POLL_EVERY_MS },
      // The periodic audit (AUDIT_CHECK_EVERY_MS): the read models against the replay of the log, as GET /audit/verify compares them.
      verifyReadModels: () => auditReadModels({ pool, store }),
    });
  }

  let checkpointWriter: CheckpointWriterHandle | undefined;
  if (roles.worker && checkpointKeys) {
    // One writer bank-wide (a PostgreSQL lock): the signed checkpoints of every stream head, every CHECKPOINT_EVERY_MS.
    checkpointWriter = startCheckpointWriter({
      store,
      keys: checkpointKeys,
      dir: checkpointSettings.dir,
      maxFileBytes: checkpointSettings.maxFileBytes,
      everyMs: checkpointSettings.everyMs,
      connection: pool.options,
      logger: logger.child({ component: 'checkpoints' }),
    });
  }

  let deps: AppDeps | undefined;
  let server: Server | undefined;
  let draining = false;
  let metricsServer: MetricsServer | undefined;
  let projection: ProjectionReader | undefined;
  let readPool: pg.Pool | undefined;
  let readProjection: ProjectionReader | undefined;
  let redis: ReturnType<typeof createRedis> | undefined;
  if (roles.api && apiKeys && authSettings) {
    redis = createRedis(config.REDIS_URL);
    watchRedis(redis, logger, 'Redis', redactUrl(config.REDIS_URL));
    // AOF and noeviction, as BullMQ's production guide asks: a warning when not (it does not stop the start).
    void warnAboutRedisDurability(redis, logger).catch(() => undefined);
    await ensureFileSchema(pool);
    projection = createProjectionReader(pool);
    // DATABASE_READ_URL: GET routes read rm.* on a replica, and X-Consistent-Position waits on the replica's copy of
    // the projector's checkpoint (committed with the rows it covers). A standby refuses LISTEN: the reader polls.
    if (config.DATABASE_READ_URL) {
      readPool = createPool(config.DATABASE_READ_URL, 20, { applicationName: READ_POOL_APPLICATION_NAME, onStalledDestroyed: onStalledDestroyed('read') });
      readProjection = createProjectionReader(readPool, { listen: false, pollIntervalMs: 50 });
      logger.info({ url: redactUrl(config.DATABASE_READ_URL) }, 'Read models read from the replica at DATABASE_READ_URL');
    }
    const apiDeps = {
      config,
      logger: logger.child({ component: 'api' }),
      pool,
      store,
      commands,
      signals,
      keys: apiKeys,
      auth: authSettings,
      pinKeys,
      chainKeys,
      ...(checkpointKeys ? { checkpoints: { dir: checkpointSettings.dir, keys: checkpointKeys } } : {}),
      verifyLegacyPin: verifySecret,
      transfers: apiTransferSettings(transferSettings, config.NODE_ENV),
      redis,
      projection,
      ...(readPool && readProjection ? { readPool, readProjection } : {}),
      limits: parseRateLimitConfig(env),
      metrics: createApiMetrics({ processMetrics: true }),
      extraMetricRegistries: registries,
      draining: () => draining,
    };
    // The worker's COB when it runs in this process (the advance then shares its metrics), else the API's own.
    deps = { ...apiDeps, books: worker ? { calendar, cob: worker.cob } : createAppBooks(apiDeps, booksSettings) };
    // Before listening: once the API answers /api/ready, the first admin exists.
    await ensureFirstAdmin(deps);
    const app = createApp(deps);
    const port = options.port ?? config.PORT;
    server = await new Promise<Server>((resolve, reject) => {
      const listening = app.listen(port, () => resolve(listening));
      listening.once('error', reject);
    });
    // While draining, every answer asks the client to close its connection (so keep-alive clients reconnect to a
    // process that is not stopping).
    server.prependListener('request', (_req, res) => {
      if (draining) res.setHeader('Connection', 'close');
    });
    const address = server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    logger.info({ port: actualPort }, `Bank listening on http://localhost:${actualPort}`);
    if (config.METRICS_PORT !== undefined) {
      metricsServer = await startMetricsServer(deps, { port: config.METRICS_PORT, host: config.METRICS_HOST });
      logger.info({ url: metricsServer.url }, `Metrics on ${metricsServer.url}`);
    }
  }

  let stopped: Promise<void> | undefined;
  const steps = new ShutdownSteps();
  return {
    roles,
    pool,
    store,
    commands,
    signals,
    projector,
    worker,
    checkpointWriter,
    deps,
    server,
    stop(drainMs = 10_000) {
      stopped ??= (async () => {
        draining = true;
        if (server) {
          await steps.run('requests in flight', async () => {
            const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
            server!.closeIdleConnections();
            const timer = setTimeout(() => server!.closeAllConnections(), drainMs);
            await closed;
            clearTimeout(timer);
          });
        }
        await steps.run('metrics server', () => metricsServer?.close());
        await steps.run('worker', () => worker?.stop(), () => worker?.stopStep());
        // After the worker: the last checkpoint covers what its transfers appended.
        await steps.run('checkpoint writer', () => checkpointWriter?.stop());
        await steps.run('projector', () => projector?.stop());
        await steps.run('read models', async () => {
          await projection?.close();
          await readProjection?.close();
        });
        await steps.run('transfer signals', () => signals.close());
        await steps.run('commands', () => commands.flush());
        redis?.disconnect();
        await steps.run('event store', () => store.close());
        await steps.run('database pools', async () => {
          await pool.end();
          await readPool?.end();
        });
      })();
      return stopped;
    },
    stopStep: () => steps.current(),
  };
}

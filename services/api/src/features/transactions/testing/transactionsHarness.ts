import express, { type Express } from 'express';
import { Redis } from 'ioredis';
import { createProjectionReader, startProjector, type ProjectorHandle } from '@bank/projector';
import { createLogger, parseConfig, parseKeyringText } from '@bank/platform';
import { createTransferFixture, type OpenCustomerOptions, type TestCustomer, type TransferFixture } from '@bank/testkit';
import { parseBooksSettings, type BooksSettings } from '@bank/books';
import { defaultTransferSettings, parseTransferSettings, type TransferSettings } from '@bank/transfers';
import { startWorker, type RunningWorker } from '@bank/worker';
import { loadApiKeys } from '../../../apiKeys';
import { apiTransferSettings } from '../../../apiTransferSettings';
import type { AppDeps } from '../../../appDeps';
import { errorHandler } from '../../../http/errorHandler';
import { jsonBody } from '../../../http/jsonBody';
import { requestId } from '../../../http/requestId';
import { createApiMetrics } from '../../../operations/apiMetrics';
import { createAppBooks } from '../../businessDate/appBooks';
import { testToken } from '../../../testing/testSessions';
import { parseRateLimitConfig } from '../../../rateLimitConfig';
import { createQueueDashboard } from '../queueDashboard';
import { createTransactionsRouter, type TransactionsRouterOptions } from '../transactionsRouter';

/**
 * A minimal app for the transactions routes: the API's own middleware (request id, JSON body, auth, error mapping,
 * sendCommandResult through app.locals.deps), this router at /api/transaction and the queue dashboard at
 * /api/admin/queues, on a fresh database and Redis prefix, with the projector and the worker (the transfer process,
 * settlement and maintenance jobs) running in-process on the fixture's command handler.
 */
export const TEST_PIN = '123456';

export interface TransactionsHarness {
  readonly app: Express;
  readonly deps: AppDeps;
  readonly fx: TransferFixture;
  readonly projector: ProjectorHandle;
  readonly worker: RunningWorker | undefined;
  /** A customer with a payment pin (TEST_PIN), visible in the read models. */
  customer(options?: OpenCustomerOptions): Promise<TestCustomer & { token: string }>;
  admin(): Promise<TestCustomer & { token: string }>;
  /** Waits until the read models have applied everything appended so far. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly router?: TransactionsRouterOptions;
  /** Start the worker in this process (default true). */
  readonly worker?: boolean;
  readonly workerSettings?: Partial<TransferSettings & BooksSettings>;
  readonly env?: Record<string, string>;
  /** The API's own Redis (default the fixture's, which the worker uses): a private server a test can MONITOR. */
  readonly apiRedisUrl?: string;
}

export async function createTransactionsHarness(label: string, options: HarnessOptions = {}): Promise<TransactionsHarness> {
  const fx = await createTransferFixture(label);
  const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const config = parseConfig({
    NODE_ENV: 'test',
    DATABASE_URL: fx.db.url,
    REDIS_URL: fx.redis.url,
    REDIS_PREFIX: fx.redis.prefix,
    JWT_SECRET: 'transactions-test-secret-0123456789',
    ...options.env,
  });
  const redis = new Redis(options.apiRedisUrl ?? fx.redis.url, { maxRetriesPerRequest: null });
  const projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
  const projection = createProjectionReader(fx.pool);
  const baseDeps: Omit<AppDeps, 'books'> = {
    config,
    keys: loadApiKeys(config, { IDEMPOTENCY_KEYS: `t1:${Buffer.alloc(32, 7).toString('base64')}` }),
    logger,
    pool: fx.pool,
    store: fx.store,
    commands: fx.commands,
    signals: fx.signals,
    pinKeys: fx.pinKeys,
    redis,
    projection,
    limits: parseRateLimitConfig(options.env ?? {}),
    metrics: createApiMetrics(),
    bcryptCost: 10,
    auth: { staffSecondFactor: 'required', secondFactorKeys: parseKeyringText('totp', 'TOTP_KEYS', `t1:${Buffer.alloc(32, 9).toString('base64')}`) },
    transfers: apiTransferSettings(parseTransferSettings(options.env ?? {}), config.NODE_ENV),
  };
  // The API's own business calendar and COB, with the worker's settings (the worker below has its own COB).
  const deps: AppDeps = { ...baseDeps, books: createAppBooks(baseDeps, { ...parseBooksSettings({ NODE_ENV: config.NODE_ENV }), ...options.workerSettings }) };
  const worker =
    options.worker === false
      ? undefined
      : await startWorker({
          config: {
            ...defaultTransferSettings({ WORKER_BACKOFF_MS: 100, WORKER_LOCK_DURATION_MS: 5000, WORKER_STALLED_INTERVAL_MS: 2000 }),
            ...options.workerSettings,
            REDIS_URL: fx.redis.url,
            REDIS_PREFIX: fx.redis.prefix,
            AUDIT_CHECK_EVERY_MS: config.AUDIT_CHECK_EVERY_MS,
          },
          store: fx.store,
          pool: fx.pool,
          commands: fx.commands,
          signals: fx.signals,
          logger,
          sweepOnStart: false,
        });

  const app = express();
  app.disable('x-powered-by');
  app.locals.deps = deps;
  app.use(requestId());
  app.use('/api/admin/queues', createQueueDashboard(deps, worker ? { queues: [worker.ach.queue, worker.maintenance] } : {}));
  app.use('/api', ...jsonBody());
  app.use('/api/transaction', createTransactionsRouter(deps, options.router));
  app.use(errorHandler(logger));

  const settle = async () => {
    const last = fx.lastPosition();
    if (last && !(await projection.waitForPosition(last, 15_000))) throw new Error('The projector did not catch up');
  };
  const withToken = async (customer: TestCustomer, role: 'customer' | 'admin') => {
    await settle();
    return { ...customer, token: await testToken(deps, { userId: customer.userId, role }) };
  };

  return {
    app,
    deps,
    fx,
    projector,
    worker,
    async customer(customerOptions = {}) {
      return withToken(await fx.openCustomer({ pin: TEST_PIN, ...customerOptions }), 'customer');
    },
    async admin() {
      return withToken(await fx.openCustomer({ role: 'admin' }), 'admin');
    },
    settle,
    async close() {
      await worker?.stop();
      await projector.stop();
      await projection.close();
      redis.disconnect();
      await fx.close();
    },
  };
}

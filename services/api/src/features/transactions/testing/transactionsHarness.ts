import bcrypt from 'bcryptjs';
import express, { type Express } from 'express';
import { Redis } from 'ioredis';
import { createProjectionReader, startProjector, type ProjectorHandle } from '@bank/projector';
import { createLogger, parseConfig } from '@bank/platform';
import { defaultWorkerSettings, startWorker, type RunningWorker, type WorkerSettings } from '@bank/worker';
import { createTransferFixture, type OpenCustomerOptions, type TestCustomer, type TransferFixture } from '@bank/worker/testing';
import type { AppDeps } from '../../../appDeps';
import { signToken } from '../../../auth/tokens';
import { TOO_MANY_WRONG_PINS_MESSAGE } from '../../../auth/pinAttemptLimiter';
import { errorHandler } from '../../../http/errorHandler';
import { TooManyRequestsError } from '../../../http/httpErrors';
import type { FailureLimiter } from '../../../http/rateLimiter';
import { jsonBody } from '../../../http/jsonBody';
import { requestId } from '../../../http/requestId';
import { createApiMetrics } from '../../../operations/apiMetrics';
import { parseRateLimitConfig } from '../../../rateLimitConfig';
import { createQueueDashboard } from '../queueDashboard';
import { createTransactionsRouter, type TransactionsRouterOptions } from '../transactionsRouter';

/**
 * A minimal app for the transactions routes: the API's own middleware (request id, JSON body, auth, error mapping,
 * sendCommandResult through app.locals.deps), this router at /api/transaction and the queue dashboard at
 * /api/admin/queues, on a fresh database and Redis prefix, with the projector and the worker running in-process.
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
  readonly workerSettings?: Partial<WorkerSettings>;
  readonly settlementDelayMs?: number;
  readonly env?: Record<string, string>;
}

let pinHash: Promise<string> | undefined;

export async function createTransactionsHarness(label: string, options: HarnessOptions = {}): Promise<TransactionsHarness> {
  const fx = await createTransferFixture(label);
  const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const config = parseConfig({
    NODE_ENV: 'test',
    DATABASE_URL: fx.db.url,
    REDIS_URL: fx.redis.url,
    REDIS_PREFIX: fx.redis.prefix,
    JWT_SECRET: 'transactions-test-secret-0123456789',
    SETTLEMENT_DELAY_MS: String(options.settlementDelayMs ?? 100),
    ...options.env,
  });
  const redis = new Redis(fx.redis.url, { maxRetriesPerRequest: null });
  const projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
  const projection = createProjectionReader(fx.pool);
  const deps: AppDeps = {
    config,
    logger,
    pool: fx.pool,
    store: fx.store,
    redis,
    projection,
    limits: parseRateLimitConfig(options.env ?? {}),
    metrics: createApiMetrics(),
    bcryptCost: 10,
  };
  const worker =
    options.worker === false
      ? undefined
      : await startWorker({
          config: {
            ...defaultWorkerSettings({ WORKER_BACKOFF_MS: 100, WORKER_LOCK_DURATION_MS: 5000, WORKER_STALLED_INTERVAL_MS: 2000, ...options.workerSettings }),
            REDIS_URL: fx.redis.url,
            REDIS_PREFIX: fx.redis.prefix,
            SETTLEMENT_DELAY_MS: config.SETTLEMENT_DELAY_MS,
            AUDIT_CHECK_EVERY_MS: config.AUDIT_CHECK_EVERY_MS,
          },
          store: fx.store,
          pool: fx.pool,
          logger,
          sweepOnStart: false,
        });

  const app = express();
  app.disable('x-powered-by');
  app.locals.deps = deps;
  app.use(requestId());
  app.use('/api/admin/queues', createQueueDashboard(deps, worker ? { queues: worker.queues } : {}));
  app.use('/api', ...jsonBody());
  app.use(
    '/api/transaction',
    createTransactionsRouter(deps, { ...(worker ? { queues: worker.queues } : {}), pinLimiter: testPinLimiter(deps), ...options.router }),
  );
  app.use(errorHandler(logger));

  const settle = async () => {
    const last = fx.lastPosition();
    if (last && !(await projection.waitForPosition(last, 15_000))) throw new Error('The projector did not catch up');
  };
  const withToken = async (customer: TestCustomer, role: 'customer' | 'admin') => {
    await settle();
    return { ...customer, token: signToken(config, { userId: customer.userId, role }).token };
  };

  return {
    app,
    deps,
    fx,
    projector,
    worker,
    async customer(customerOptions = {}) {
      pinHash ??= bcrypt.hash(TEST_PIN, 4);
      return withToken(await fx.openCustomer({ pinHash: await pinHash, ...customerOptions }), 'customer');
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

/**
 * A stand-in for the API's pin limiter while its assertAllowed refuses keys never seen (rate-limit-redis's `get`
 * through ioredis answers NaN hits for a missing key): the same rule, 5 wrong pins per user per window, 429 after.
 */
function testPinLimiter(deps: AppDeps): FailureLimiter {
  const { limit, windowMs } = deps.limits.paymentPin;
  const key = (user: string) => `${deps.config.REDIS_PREFIX}rl:pin-test:${user}`;
  return {
    async assertAllowed(user) {
      const [hits, ttl] = await Promise.all([deps.redis.get(key(user)), deps.redis.pttl(key(user))]);
      if (Number(hits ?? 0) >= limit) throw new TooManyRequestsError(TOO_MANY_WRONG_PINS_MESSAGE, Math.max(1, (ttl > 0 ? ttl : windowMs) / 1000));
    },
    async recordFailure(user) {
      const hits = await deps.redis.incr(key(user));
      if (hits === 1) await deps.redis.pexpire(key(user), windowMs);
    },
    async reset(user) {
      await deps.redis.del(key(user));
    },
  };
}

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { comparePositions, createEventStore, type EventStore, type Position } from '@bank/eventstore';
import { createLogger, createPool, parseConfig } from '@bank/platform';
import { createTestDatabase, createTestRedis } from '@bank/platform/testing';
import { createProjectionReader, startProjector, type ProjectorHandle } from '@bank/projector';
import type { Express } from 'express';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import request from 'supertest';
import { createApp } from '../app';
import type { AppDeps } from '../appDeps';
import { createApiMetrics } from '../operations/apiMetrics';
import { ensureFileSchema } from '../features/files/fileStore';
import type { RateLimitConfig } from '../rateLimitConfig';
import { createStaffUser, type StaffRole } from '../staff/createStaffUser';

export const TEST_JWT_SECRET = 'api-test-secret-0123456789abcdef';
export const TEST_PASSWORD = 'secret123';

/** Limits high enough that no test meets them by accident (rate-limit tests set their own). */
export const GENEROUS_LIMITS: RateLimitConfig = {
  signIn: { limit: 1000, windowMs: 60_000 },
  signUp: { limit: 1000, windowMs: 60_000 },
  contact: { limit: 1000, windowMs: 60_000 },
  accountLookup: { limit: 1000, windowMs: 60_000 },
  paymentPin: { limit: 1000, windowMs: 60_000 },
};

export interface SignedIn {
  readonly userId: string;
  readonly email: string;
  readonly password: string;
  readonly token: string;
  readonly accountNumber: string;
  readonly auth: { readonly Authorization: string };
}

export interface TestApp {
  readonly app: Express;
  readonly deps: AppDeps;
  readonly store: EventStore;
  readonly projector: ProjectorHandle;
  /** Signs a customer up through POST /auth/signup and in through POST /auth/signin. */
  customer(overrides?: Record<string, string>): Promise<SignedIn>;
  /** Creates a staff user (as `npm run user:create` does) and signs in. */
  staff(role: StaffRole): Promise<SignedIn>;
  /** Signs in through POST /auth/signin. */
  signIn(email: string, password: string): Promise<SignedIn>;
  /** Waits until the read models include every event appended so far. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  readonly limits?: Partial<RateLimitConfig>;
  readonly env?: Record<string, string>;
  readonly consistencyTimeoutMs?: number;
  readonly now?: () => Date;
}

let counter = 0;

/** A unique e-mail address for a test user. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}.${Date.now().toString(36)}.${counter}@example.com`;
}

/**
 * The real app on a fresh PostgreSQL database and Redis prefix, with the PostgreSQL event store and the projector
 * running in-process (no worker: the transactions feature has its own harness).
 */
export async function createTestApp(label: string, options: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(label);
  const testRedis = await createTestRedis();
  const config = parseConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    REDIS_URL: testRedis.url,
    REDIS_PREFIX: testRedis.prefix,
    JWT_SECRET: TEST_JWT_SECRET,
    ...options.env,
  });
  const logger = createLogger('api-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const pool = createPool(db.url, 10);
  const store = trackAppends(await createEventStore(config, { pool }));
  const redis = new Redis(testRedis.url, { maxRetriesPerRequest: null });
  await ensureFileSchema(pool);
  const projectorRegistry = new Registry();
  const projector = startProjector({ pool, store, registry: projectorRegistry });
  await projector.ready;
  // Stopping the projector between becoming the leader and catching up can hang (reported): wait for the catch-up.
  await projector.caughtUp;
  const projection = createProjectionReader(pool);
  const webDist = mkdtempSync(path.join(tmpdir(), 'bank-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Bank</title>');
  const deps: AppDeps = {
    config,
    logger,
    pool,
    store,
    redis,
    projection,
    limits: { ...GENEROUS_LIMITS, ...options.limits },
    metrics: createApiMetrics(),
    extraMetricRegistries: [projectorRegistry],
    webDist,
    ...(options.now ? { now: options.now } : {}),
    // Generous: the test server is shared, and a busy one can hold the projector back for more than 2 s.
    consistencyTimeoutMs: options.consistencyTimeoutMs ?? 20_000,
  };
  const app = createApp(deps);

  async function signIn(email: string, password: string): Promise<SignedIn> {
    const res = await request(app).post('/api/auth/signin').send({ email, password });
    if (res.status !== 200) {
      throw new Error(`Sign-in of ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
    const body = res.body as { token: string; user: { _id: string; account: { number: string } } };
    return {
      userId: body.user._id,
      email,
      password,
      token: body.token,
      accountNumber: body.user.account.number,
      auth: { Authorization: `Bearer ${body.token}` },
    };
  }

  /**
   * Waits for the last event appended through this app. Not for the store's visible head: the PostgreSQL store
   * shows an event only once every older transaction of the whole server has ended, so on a busy test server the
   * head can lag behind what was just appended.
   */
  async function settle(): Promise<void> {
    const last = store.lastAppended();
    if (last && !(await projection.waitForPosition(last, 20_000))) throw new Error('The projector did not catch up');
  }

  return {
    app,
    deps,
    store,
    projector,
    signIn,
    settle,
    async customer(overrides = {}) {
      const body = {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: uniqueEmail('customer'),
        phone: '555-0100',
        password: TEST_PASSWORD,
        address: '1 Analytical Way',
        state: 'NY',
        ...overrides,
      };
      const res = await request(app).post('/api/auth/signup').send(body);
      if (res.status !== 201) throw new Error(`Sign-up answered ${res.status}: ${JSON.stringify(res.body)}`);
      await settle();
      return signIn(body.email, body.password);
    },
    async staff(role) {
      const email = uniqueEmail(role);
      await createStaffUser(deps, { role, email, password: TEST_PASSWORD });
      await settle();
      return signIn(email, TEST_PASSWORD);
    },
    async close() {
      await projector.stop();
      await projection.close();
      redis.disconnect();
      await store.close();
      await pool.end();
      await testRedis.clean();
      await db.drop();
    },
  };
}

/** The store, remembering the position of the last event appended through it. */
function trackAppends(store: EventStore): EventStore & { lastAppended(): Position | undefined } {
  let last: Position | undefined;
  return {
    async append(stream, events, expectedRevision) {
      const result = await store.append(stream, events, expectedRevision);
      if (!last || comparePositions(result.position, last) > 0) last = result.position;
      return result;
    },
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    subscribe: (handler, options) => store.subscribe(handler, options),
    headPosition: () => store.headPosition(),
    positionToken: (position) => store.positionToken(position),
    resolvePositionToken: (token) => store.resolvePositionToken(token),
    close: () => store.close(),
    lastAppended: () => last,
  };
}

/** A tiny valid PNG (1×1), as a data URL and as bytes. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
export const PNG_DATA_URL = `data:image/png;base64,${PNG_BYTES.toString('base64')}`;

/** A different image (a GIF) for tests that need two distinct files. */
export const GIF_BYTES = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
export const GIF_DATA_URL = `data:image/gif;base64,${GIF_BYTES.toString('base64')}`;

import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCommandHandler, createPostgresSnapshotStore, ensureSnapshotSchema } from '@bank/commands';
import { comparePositions, createEventStore, type EventStore, type Position } from '@bank/eventstore';
import { createLogger, createPool, parseConfig, parseKeyringText } from '@bank/platform';
import { parseBooksSettings } from '@bank/books';
import { createTransferSignals, parseTransferSettings } from '@bank/transfers';
import { createTestDatabase, createTestRedis } from '@bank/testkit';
import { createProjectionReader, startProjector, type ProjectorHandle } from '@bank/projector';
import type { Express } from 'express';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import request from 'supertest';
import { createApp } from '../app';
import { loadApiKeys } from '../apiKeys';
import { apiTransferSettings } from '../apiTransferSettings';
import type { AppDeps } from '../appDeps';
import { createApiMetrics } from '../operations/apiMetrics';
import { createAppBooks } from '../features/businessDate/appBooks';
import { ensureFileSchema } from '../features/files/fileStore';
import type { RateLimitConfig } from '../rateLimitConfig';
import { createStaffUser, type StaffRole } from '../staff/createStaffUser';
import type { AuthSettings } from '../auth/authSettings';
import { codeAt, stepAt, TOTP_PERIOD_SECONDS } from '../auth/secondFactor/totp';
import { testToken } from './testSessions';

export const TEST_JWT_SECRET = 'api-test-secret-0123456789abcdef';
export const TEST_PASSWORD = 'secret123';
export const TEST_PIN_KEYS = `t1:${Buffer.alloc(32, 7).toString('base64')}`;
/** Staff passwords need 12 characters. */
export const STAFF_TEST_PASSWORD = 'staff-secret-123';
export const TEST_CHAIN_KEYS = `c1:${Buffer.alloc(32, 11).toString('base64')}`;
export const TEST_CHECKPOINT_KEYS = `s1:${Buffer.alloc(32, 13).toString('base64')}`;

/** Limits high enough that no test meets them by accident (rate-limit tests set their own). */
export const GENEROUS_LIMITS: RateLimitConfig = {
  signIn: { limit: 1000, windowMs: 60_000 },
  signUp: { limit: 1000, windowMs: 60_000 },
  contact: { limit: 1000, windowMs: 60_000 },
  accountLookup: { limit: 1000, windowMs: 60_000 },
  paymentPin: { limit: 1000, windowMs: 60_000 },
  signInPerAddress: { limit: 1000, windowMs: 60_000 },
  secondFactor: { limit: 1000, windowMs: 60_000 },
  secondFactorPerAddress: { limit: 1000, windowMs: 60_000 },
  passwordCheck: { limit: 1000, windowMs: 60_000 },
};

export interface SignedIn {
  readonly userId: string;
  readonly email: string;
  readonly password: string;
  readonly token: string;
  readonly accountNumber: string;
  readonly auth: { readonly Authorization: string };
}

/** A staff member (or a customer) with a TOTP second factor: its secret, for computing codes. */
export interface SignedInWithFactor extends SignedIn {
  readonly totpSecret: string;
  readonly recoveryCodes: readonly string[];
}

export interface TestApp {
  readonly app: Express;
  readonly deps: AppDeps;
  readonly store: EventStore;
  readonly projector: ProjectorHandle;
  /** Signs a customer up through POST /auth/signup and in through POST /auth/signin. */
  customer(overrides?: Record<string, string>): Promise<SignedIn>;
  /**
   * Creates a staff user (as `npm run user:create` does) and signs in: POST /auth/signin answers an enrolment
   * challenge, POST /auth/second-factor/enrol gives the secret, and a code computed from it completes the sign-in.
   */
  staff(role: StaffRole): Promise<SignedInWithFactor>;
  /** Signs in through POST /auth/signin (a user without a second factor). */
  signIn(email: string, password: string): Promise<SignedIn>;
  /**
   * Signs in a user who must enrol (staff) or has a second factor (`totpSecret`): the password, then a code of a
   * time step not used before (waiting for the next step when needed, as a person would).
   */
  signInWithCode(email: string, password: string, totpSecret?: string): Promise<SignedInWithFactor>;
  /** The next code of `secret` that the server has not accepted yet (waits up to one step for it). */
  freshCode(secret: string): Promise<string>;
  /** A new session of an existing user without signing in (for tests about routes, not about sign-in). */
  newSession(user: Pick<SignedIn, 'userId' | 'email' | 'password' | 'accountNumber'>, role: StaffRole | 'customer'): Promise<SignedIn>;
  /** Waits until the read models include every event appended so far. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  readonly limits?: Partial<RateLimitConfig>;
  readonly env?: Record<string, string>;
  readonly consistencyTimeoutMs?: number;
  readonly now?: () => Date;
  /** Moves `now` forward (then a code of a later step need not be waited for). */
  readonly advanceClock?: (ms: number) => void;
  readonly staffSecondFactor?: AuthSettings['staffSecondFactor'];
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
  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    REDIS_URL: testRedis.url,
    REDIS_PREFIX: testRedis.prefix,
    JWT_SECRET: TEST_JWT_SECRET,
    IDEMPOTENCY_KEYS: `t1:${randomBytes(32).toString('base64')}`,
    ...options.env,
  };
  const config = parseConfig(env);
  const keys = loadApiKeys(config, env);
  const logger = createLogger('api-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const pool = createPool(db.url, 10);
  const store = trackAppends(await createEventStore(config, { pool }));
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  await ensureFileSchema(pool);
  await ensureSnapshotSchema(pool);
  const chainKeys = parseKeyringText('chain', 'CHAIN_KEYS', TEST_CHAIN_KEYS);
  const commands = createCommandHandler({ store, snapshots: createPostgresSnapshotStore(pool), chainKeys });
  const signals = createTransferSignals({ pool });
  const projectorRegistry = new Registry();
  const projector = startProjector({ pool, store, registry: projectorRegistry });
  await projector.ready;
  // Stopping the projector between becoming the leader and catching up can hang (reported): wait for the catch-up.
  await projector.caughtUp;
  const projection = createProjectionReader(pool);
  const webDist = mkdtempSync(path.join(tmpdir(), 'bank-web-'));
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Bank</title>');
  const baseDeps: Omit<AppDeps, 'books'> = {
    config,
    keys,
    logger,
    pool,
    store,
    commands,
    signals,
    pinKeys: parseKeyringText('pin', 'PIN_KEYS', TEST_PIN_KEYS),
    chainKeys,
    // No checkpoint is written here (no worker): the audit finds none, which outside production it only reports.
    checkpoints: { dir: path.join(mkdtempSync(path.join(tmpdir(), 'bank-checkpoints-')), 'checkpoints'), keys: parseKeyringText('checkpoint', 'CHECKPOINT_KEYS', TEST_CHECKPOINT_KEYS) },
    redis,
    projection,
    limits: { ...GENEROUS_LIMITS, ...options.limits },
    auth: {
      staffSecondFactor: options.staffSecondFactor ?? 'required',
      secondFactorKeys: parseKeyringText('totp', 'TOTP_KEYS', `t1:${randomBytes(32).toString('base64')}`),
    },
    metrics: createApiMetrics(),
    extraMetricRegistries: [projectorRegistry],
    webDist,
    ...(options.now ? { now: options.now } : {}),
    // Generous: the test server is shared, and a busy one can hold the projector back for more than 2 s.
    consistencyTimeoutMs: options.consistencyTimeoutMs ?? 20_000,
    transfers: apiTransferSettings(parseTransferSettings(env), config.NODE_ENV),
  };
  // The business calendar and COB of the test's environment (BUSINESS_DATE_MODE=manual for the advance's tests).
  const deps: AppDeps = { ...baseDeps, books: createAppBooks(baseDeps, parseBooksSettings(env)) };
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

  const clock = () => options.now?.() ?? new Date();
  /** The newest step each secret was used with here (the server refuses it and older ones). */
  const usedSteps = new Map<string, number>();

  async function freshCode(secret: string): Promise<string> {
    let step = stepAt(clock());
    const last = usedSteps.get(secret);
    // The server accepts the next step too (±1): use it before waiting for the clock.
    if (last !== undefined && last >= step) step = last + 1;
    if (step > stepAt(clock()) + 1) {
      const nextStepAt = (stepAt(clock()) + 1) * TOTP_PERIOD_SECONDS * 1000;
      const wait = nextStepAt - clock().getTime() + 50;
      if (options.advanceClock) options.advanceClock(wait);
      else await new Promise((resolve) => setTimeout(resolve, wait));
    }
    usedSteps.set(secret, step);
    return codeAt(secret, new Date(step * TOTP_PERIOD_SECONDS * 1000));
  }

  async function signInWithCode(email: string, password: string, totpSecret?: string): Promise<SignedInWithFactor> {
    const first = await request(app).post('/api/auth/signin').send({ email, password });
    const step = first.body as { secondFactor?: 'totp' | 'enrol'; challenge?: string };
    if (first.status !== 200 || !step.challenge) throw new Error(`Sign-in of ${email} answered ${first.status}: ${JSON.stringify(first.body)}`);
    let secret = totpSecret;
    if (step.secondFactor === 'enrol') {
      const enrol = await request(app).post('/api/auth/second-factor/enrol').send({ challenge: step.challenge });
      if (enrol.status !== 200) throw new Error(`Enrolment of ${email} answered ${enrol.status}: ${JSON.stringify(enrol.body)}`);
      secret = (enrol.body as { secret: string }).secret;
    }
    if (!secret) throw new Error(`${email} has a second factor: pass its secret`);
    const res = await request(app).post('/api/auth/second-factor').send({ challenge: step.challenge, code: await freshCode(secret) });
    if (res.status !== 200) throw new Error(`Second factor of ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
    const body = res.body as { token: string; user: { _id: string; account: { number: string } }; recoveryCodes?: string[] };
    return {
      userId: body.user._id,
      email,
      password,
      token: body.token,
      accountNumber: body.user.account.number,
      auth: { Authorization: `Bearer ${body.token}` },
      totpSecret: secret,
      recoveryCodes: body.recoveryCodes ?? [],
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
    signInWithCode,
    freshCode,
    settle,
    async newSession(user, role) {
      const token = await testToken(deps, { userId: user.userId, role });
      return { ...user, token, auth: { Authorization: `Bearer ${token}` } };
    },
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
      await createStaffUser(deps, { role, email, password: STAFF_TEST_PASSWORD });
      await settle();
      return signInWithCode(email, STAFF_TEST_PASSWORD);
    },
    async close() {
      await projector.stop();
      await projection.close();
      await signals.close();
      await commands.flush();
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
    ...(store.countStreamEvents ? { countStreamEvents: store.countStreamEvents.bind(store) } : {}),
    ...(store.lastStreamEvent ? { lastStreamEvent: store.lastStreamEvent.bind(store) } : {}),
    ...(store.readRecorded ? { readRecorded: store.readRecorded.bind(store) } : {}),
    ...(store.readEvent ? { readEvent: store.readEvent.bind(store) } : {}),
    ...(store.readRecordedSince ? { readRecordedSince: store.readRecordedSince.bind(store) } : {}),
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

import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../http/httpErrors';
import { createTestApp, TEST_PASSWORD, uniqueEmail, type TestApp } from '../testing/testApp';
import { createAttemptLimiter, takeAttempts } from './attemptLimiter';

const minute = 60_000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp('attempt_limits', {
    limits: {
      signIn: { limit: 3, windowMs: 15 * minute },
      signInPerAddress: { limit: 5, windowMs: 15 * minute },
      secondFactor: { limit: 3, windowMs: 15 * minute },
      passwordCheck: { limit: 2, windowMs: 15 * minute },
    },
  });
});

afterAll(async () => {
  await t?.close();
});

// Each test starts with no failures counted (this app's own keys only).
beforeEach(async () => {
  const keys = await t.deps.redis.keys(`${t.deps.config.REDIS_PREFIX}rl:*`);
  if (keys.length > 0) await t.deps.redis.del(...keys);
});

const signIn = (email: string, password: string) => request(t.app).post('/api/auth/signin').send({ email, password });

describe('failure limits count before checking', () => {
  it('a burst of parallel wrong passwords: only the limit is checked, the rest are refused unchecked', async () => {
    const customer = await t.customer();
    const answers = await Promise.all(Array.from({ length: 10 }, () => signIn(customer.email, 'wrong-password')));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    // The right password now waits too.
    expect((await signIn(customer.email, TEST_PASSWORD)).status).toBe(429);
  });

  it('a right password gives its attempt back: signing in often never meets the limit', async () => {
    const customer = await t.customer();
    for (let i = 0; i < 6; i += 1) expect((await signIn(customer.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('password spraying: failures per client address stop one password tried on many e-mails', async () => {
    const emails = Array.from({ length: 6 }, () => uniqueEmail('sprayed'));
    const statuses = [];
    for (const email of emails) statuses.push((await signIn(email, 'Summer2025!')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const res = await signIn(uniqueEmail('another'), 'Summer2025!');
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ message: 'Too many failed sign-in attempts from this address, please try again later' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('wrong codes per user, in parallel: at most the limit are checked', async () => {
    const customer = await t.customer();
    const setup = await request(t.app).post('/api/auth/second-factor/setup').set(customer.auth).send({});
    await request(t.app).post('/api/auth/second-factor/confirm').set(customer.auth).send({ code: await t.freshCode(setup.body.secret as string) }).expect(200);
    const challenges: string[] = [];
    for (let i = 0; i < 6; i += 1) challenges.push((await signIn(customer.email, TEST_PASSWORD)).body.challenge as string);
    const answers = await Promise.all(challenges.map((challenge) => request(t.app).post('/api/auth/second-factor').send({ challenge, code: '000000' })));
    expect(answers.map((res) => res.status).sort()).toEqual([401, 401, 401, 429, 429, 429]);
    const right = await request(t.app).post('/api/auth/second-factor').send({ challenge: challenges[0], code: await t.freshCode(setup.body.secret as string) });
    expect(right.status).toBe(429);
    expect(right.body).toEqual({ message: 'Too many incorrect codes, please try again later' });
  });

  it('change-password is attempt-limited per user', async () => {
    const customer = await t.customer();
    const change = (oldPassword: string) => request(t.app).post('/api/auth/change-password').set(customer.auth).send({ oldPassword, newPassword: 'brand-new-secret' });
    expect((await change('wrong-1')).status).toBe(422);
    expect((await change('wrong-2')).status).toBe(422);
    const blocked = await change(TEST_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ message: 'Too many incorrect passwords, please try again later' });
  });
});

describe('createAttemptLimiter', () => {
  it('takes attempts atomically in Redis and gives them back', async () => {
    const limiter = createAttemptLimiter(t.deps, { name: 'unit', limit: { limit: 2, windowMs: minute }, message: 'Slow down' });
    await limiter.consume('k');
    await limiter.consume('k');
    const refused = await limiter.consume('k').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).message).toBe('Slow down');
    await limiter.reward('k');
    await limiter.reward('k');
    await limiter.consume('k');
    await limiter.reset('k');
    await limiter.consume('k');
    await limiter.consume('k');
  });

  it('takeAttempts gives back what it took when a later limit refuses', async () => {
    const a = createAttemptLimiter(t.deps, { name: 'unit-a', limit: { limit: 1, windowMs: minute }, message: 'a' });
    const b = createAttemptLimiter(t.deps, { name: 'unit-b', limit: { limit: 1, windowMs: minute }, message: 'b' });
    await b.consume('x');
    await expect(takeAttempts([a, 'x'], [b, 'x'])).rejects.toThrow('b');
    // a's attempt came back: it can still be taken.
    await a.consume('x');
  });
});

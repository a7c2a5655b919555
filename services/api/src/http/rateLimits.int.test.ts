import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPinAttemptGuard, TOO_MANY_WRONG_PINS_MESSAGE } from '../auth/pinAttemptLimiter';
import { createTestApp, TEST_PASSWORD, uniqueEmail, type SignedIn, type TestApp } from '../testing/testApp';
import { TooManyRequestsError } from './httpErrors';

let t: TestApp;
let admin: SignedIn;
let pinCustomer: SignedIn;
const minute = 60_000;

beforeAll(async () => {
  t = await createTestApp('rate_limits', {
    limits: {
      signIn: { limit: 3, windowMs: 15 * minute },
      signUp: { limit: 6, windowMs: 60 * minute },
      contact: { limit: 2, windowMs: 60 * minute },
      accountLookup: { limit: 2, windowMs: minute },
      paymentPin: { limit: 2, windowMs: 15 * minute },
    },
  });
  admin = await t.staff('admin');
  pinCustomer = await t.customer();
});

afterAll(async () => {
  await t?.close();
});

function expectRetryAfter(res: request.Response, atMostSeconds: number): void {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(atMostSeconds);
}

describe('rate limits (429 with Retry-After)', () => {
  it('failed sign-ins per e-mail: after the limit even the right password waits; other e-mails are not affected', async () => {
    const customer = await t.customer();
    for (let i = 0; i < 3; i += 1) {
      expect((await request(t.app).post('/api/auth/signin').send({ email: customer.email, password: 'wrong-password' })).status).toBe(401);
    }
    const blocked = await request(t.app).post('/api/auth/signin').send({ email: customer.email.toUpperCase(), password: TEST_PASSWORD });
    expectRetryAfter(blocked, 15 * 60);
    expect(blocked.body).toEqual({ message: 'Too many failed sign-in attempts, please try again later' });
    const other = await t.customer();
    expect((await request(t.app).post('/api/auth/signin').send({ email: other.email, password: TEST_PASSWORD })).status).toBe(200);
  });

  it('successful sign-ins do not count', async () => {
    const customer = await t.customer();
    for (let i = 0; i < 5; i += 1) {
      expect((await request(t.app).post('/api/auth/signin').send({ email: customer.email, password: TEST_PASSWORD })).status).toBe(200);
    }
  });

  it('sign-ups per client address', async () => {
    // The customers created so far in this file used some of the 6 sign-ups.
    const send = () =>
      request(t.app).post('/api/auth/signup').send({ firstName: 'A', lastName: 'B', email: uniqueEmail('flood'), phone: '1', password: TEST_PASSWORD, address: 'x', state: 'y' });
    let res = await send();
    while (res.status === 201) res = await send();
    expectRetryAfter(res, 60 * 60);
    expect(res.body).toEqual({ message: 'Too many accounts created from this address, please try again later' });
  });

  it('contact messages per client address', async () => {
    const send = () => request(t.app).post('/api/contacts').send({ name: 'A', email: 'a@b.co', message: 'hi' });
    await send().expect(201);
    await send().expect(201);
    const res = await send();
    expectRetryAfter(res, 60 * 60);
    expect(res.body).toEqual({ message: 'Too many messages sent from this address, please try again later' });
  });

  it('account look-ups per user; the directory list is not counted', async () => {
    const lookup = () => request(t.app).get('/api/beneficiaries').query({ accountNumber: '12345678' }).set(admin.auth);
    await lookup().expect(200);
    await lookup().expect(200);
    expectRetryAfter(await lookup(), 60);
    await request(t.app).get('/api/beneficiaries').set(admin.auth).expect(200);
  });

  it('wrong payment pins per user, through the transfer route', async () => {
    const customer = pinCustomer;
    await request(t.app)
      .put(`/api/user/admin/${customer.userId}`)
      .set(admin.auth)
      .send({ firstName: 'Ada', lastName: 'Lovelace', email: customer.email, phone: '555', location: { address: 'x', state: 'y' }, paymentPin: '123456' })
      .expect(200);
    await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: 100, checking: 0, number: customer.accountNumber }).expect(200);
    const transfer = (paymentPin: string) =>
      request(t.app)
        .post('/api/transaction/transfer')
        .set(customer.auth)
        .send({ from: 'savings', amount: 5, accountNumber: '9999999999', bankName: 'Other', routingNumber: '021000021', accountType: 'savings', to: 'X', description: 'x', paymentPin });
    for (let i = 0; i < 2; i += 1) {
      const wrong = await transfer('000000');
      expect(wrong.status).toBe(422);
      expect(wrong.body).toEqual({ message: 'Incorrect payment pin' });
    }
    const blocked = await transfer('123456');
    expectRetryAfter(blocked, 15 * 60);
    expect(blocked.body).toEqual({ message: 'Too many incorrect payment pins, please try again later' });
  });

  it('the failure that reaches the limit blocks for the whole window, however long after the first it came', async () => {
    const pins = createPinAttemptGuard(t.deps);
    const user = `late-limit-${Date.now()}`;
    const failures = `${t.deps.config.REDIS_PREFIX}rl:pin:${user}`;
    expect(await pins.attempt(user, async () => false)).toBe(false);
    // The first failure was 14 minutes ago: a minute of its window is left.
    await t.deps.redis.pexpire(failures, minute);
    expect(await pins.attempt(user, async () => false)).toBe(false);
    expect(await t.deps.redis.pttl(failures)).toBeGreaterThan(15 * minute - 5_000);
    const refused = await pins.attempt(user, async () => true).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect(Number((refused as TooManyRequestsError).headers['Retry-After'])).toBeGreaterThan(15 * 60 - 5);
  });

  it('counts a pin comparison before it runs: of 10 parallel wrong pins only the limit are compared, the rest refused unchecked', async () => {
    const pins = createPinAttemptGuard(t.deps);
    let compared = 0;
    const wrong = async () => {
      compared += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return false;
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => pins.attempt('burst-user', wrong)));
    expect(compared).toBe(2);
    expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value === false)).toHaveLength(2);
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(refused).toHaveLength(8);
    for (const error of refused) {
      expect(error).toBeInstanceOf(TooManyRequestsError);
      expect((error as TooManyRequestsError).message).toBe(TOO_MANY_WRONG_PINS_MESSAGE);
      expect(Number((error as TooManyRequestsError).headers['Retry-After'])).toBeGreaterThan(0);
    }
    // Even the right pin now waits for the window; another user is not affected.
    await expect(pins.attempt('burst-user', async () => true)).rejects.toBeInstanceOf(TooManyRequestsError);
    expect(await pins.attempt('other-user', async () => true)).toBe(true);
  });

  it('lets 20 parallel comparisons of the right pin all through (they wait for each other, none is refused)', async () => {
    const pins = createPinAttemptGuard(t.deps);
    let inFlight = 0;
    let most = 0;
    const right = async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 3));
      inFlight -= 1;
      return true;
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => pins.attempt('busy-user', right)));
    expect(answers).toEqual(Array.from({ length: 20 }, () => true));
    // Never more comparisons at once than failures still allowed.
    expect(most).toBeLessThanOrEqual(2);
    // A comparison that throws counts as no failure.
    await expect(pins.attempt('busy-user', async () => Promise.reject(new Error('hash unreadable')))).rejects.toThrow('hash unreadable');
    expect(await pins.attempt('busy-user', async () => true)).toBe(true);
  });

  it('keeps its counters under REDIS_PREFIX', async () => {
    const keys = await t.deps.redis.keys(`${t.deps.config.REDIS_PREFIX}rl:*`);
    expect(keys.length).toBeGreaterThan(0);
  });
});

import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Request } from 'express';
import { authenticateRequest } from '../../auth/requireAuth';
import { deviceName } from '../../auth/sessions/deviceName';
import { createTestApp, TEST_PASSWORD, type SignedIn, type TestApp } from '../../testing/testApp';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp('sessions');
});

afterAll(async () => {
  await t?.close();
});

async function signInFrom(user: SignedIn, userAgent: string): Promise<SignedIn> {
  const res = await request(t.app).post('/api/auth/signin').set('User-Agent', userAgent).send({ email: user.email, password: TEST_PASSWORD });
  expect(res.status).toBe(200);
  return { ...user, token: res.body.token as string, auth: { Authorization: `Bearer ${res.body.token as string}` } };
}

interface SessionJson {
  id: string;
  device: string;
  address: string;
  createdAt: string;
  lastUsedAt: string;
  current: boolean;
}

const sessionsOf = async (user: SignedIn) => (await request(t.app).get('/api/auth/sessions').set(user.auth).expect(200)).body.data as SessionJson[];

describe('device names', () => {
  it('names the browser and the system from the user agent', () => {
    expect(deviceName(FIREFOX_LINUX)).toBe('Firefox on Linux');
    expect(deviceName(SAFARI_IPHONE)).toBe('Mobile Safari on iOS');
    expect(deviceName('curl/8.5.0')).toBe('curl');
    expect(deviceName('')).toBe('Unknown device');
  });
});

describe('GET /auth/sessions', () => {
  it('lists every sign-in with device, address, created and last used, marking the current one', async () => {
    const customer = await t.customer();
    const firefox = await signInFrom(customer, FIREFOX_LINUX);
    const list = await sessionsOf(firefox);
    expect(list).toHaveLength(2);
    const current = list.find((session) => session.current);
    expect(current).toMatchObject({ device: 'Firefox on Linux', address: '127.0.0.1' });
    expect(Date.parse(current!.createdAt)).toBeLessThanOrEqual(Date.parse(current!.lastUsedAt));
    expect(list.filter((session) => session.current)).toHaveLength(1);
  });
});

describe('ending sessions', () => {
  it('DELETE /auth/sessions/:id: that token is refused from its next request; the others keep working', async () => {
    const customer = await t.customer();
    const phone = await signInFrom(customer, SAFARI_IPHONE);
    const phoneSession = (await sessionsOf(phone)).find((session) => session.current)!;
    const res = await request(t.app).delete(`/api/auth/sessions/${phoneSession.id}`).set(customer.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Signed out of that session', data: { id: phoneSession.id, current: false } });
    expect((await request(t.app).get('/api/user/me').set(phone.auth)).status).toBe(401);
    expect((await request(t.app).get('/api/user/me').set(customer.auth)).status).toBe(200);
    expect((await sessionsOf(customer)).map((session) => session.id)).not.toContain(phoneSession.id);
  });

  it('sessions checked in the same turn go as one statement, each request answered by its own session', async () => {
    const [a, b] = await Promise.all([t.customer(), t.customer()]);
    const bPhone = await signInFrom(b, SAFARI_IPHONE);
    const bPhoneSession = (await sessionsOf(bPhone)).find((session) => session.current)!;
    await request(t.app).delete(`/api/auth/sessions/${bPhoneSession.id}`).set(b.auth).expect(200);
    const requestWith = (user: SignedIn) => ({ get: (name: string) => (name === 'Authorization' ? user.auth.Authorization : undefined) }) as unknown as Request;
    const pool = t.deps.pool;
    const statements: string[] = [];
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const config = args[0] as { name?: string } | string;
      if (typeof config !== 'string' && config.name?.startsWith('auth.caller')) statements.push(config.name);
      return query(...args);
    };
    try {
      const outcomes = await Promise.allSettled([a, bPhone, b, a].map((user) => authenticateRequest(t.deps, requestWith(user))));
      expect(statements).toEqual(['auth.callers']);
      expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value?.userId : 'refused'))).toEqual([a.userId, 'refused', b.userId, a.userId]);
      expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { status: 401 } });
      statements.length = 0;
      expect((await authenticateRequest(t.deps, requestWith(b)))?.userId).toBe(b.userId);
      expect(statements).toEqual(['auth.caller']);
    } finally {
      delete (pool as unknown as { query?: unknown }).query;
    }
  });

  it("answers 404 for an unknown session, and for another user's (which stays signed in)", async () => {
    const [a, b] = await Promise.all([t.customer(), t.customer()]);
    const bSession = (await sessionsOf(b))[0]!;
    expect((await request(t.app).delete(`/api/auth/sessions/${bSession.id}`).set(a.auth)).status).toBe(404);
    expect((await request(t.app).delete('/api/auth/sessions/not-a-uuid').set(a.auth)).status).toBe(404);
    expect((await request(t.app).get('/api/user/me').set(b.auth)).status).toBe(200);
  });

  it('POST /auth/sessions/revoke-others: every other session ends, this one stays', async () => {
    const customer = await t.customer();
    const others = [await signInFrom(customer, FIREFOX_LINUX), await signInFrom(customer, SAFARI_IPHONE)];
    const res = await request(t.app).post('/api/auth/sessions/revoke-others').set(customer.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Signed out everywhere else', data: { revoked: 2 } });
    for (const other of others) expect((await request(t.app).get('/api/user/me').set(other.auth)).status).toBe(401);
    expect(await sessionsOf(customer)).toEqual([expect.objectContaining({ current: true })]);
  });

  it('a password change ends every other session', async () => {
    const customer = await t.customer();
    const other = await signInFrom(customer, FIREFOX_LINUX);
    await request(t.app).post('/api/auth/change-password').set(customer.auth).send({ oldPassword: TEST_PASSWORD, newPassword: 'another-secret' }).expect(200);
    expect((await request(t.app).get('/api/user/me').set(other.auth)).status).toBe(401);
    expect((await request(t.app).get('/api/user/me').set(customer.auth)).status).toBe(200);
  });

  it('a wrong old password ends nothing', async () => {
    const customer = await t.customer();
    const other = await signInFrom(customer, FIREFOX_LINUX);
    await request(t.app).post('/api/auth/change-password').set(customer.auth).send({ oldPassword: 'wrong-one', newPassword: 'another-secret' }).expect(422);
    expect((await request(t.app).get('/api/user/me').set(other.auth)).status).toBe(200);
  });
});

describe('a sign-in from a new device', () => {
  it('is a notice until dismissed; the first sign-in and a known device are not', async () => {
    const customer = await t.customer();
    expect((await request(t.app).get('/api/auth/sign-in-notices').set(customer.auth)).body).toEqual({ data: [] });
    const firefox = await signInFrom(customer, FIREFOX_LINUX);
    await signInFrom(customer, FIREFOX_LINUX);
    const notices = (await request(t.app).get('/api/auth/sign-in-notices').set(customer.auth)).body.data as { id: string; device: string; address: string; createdAt: string }[];
    expect(notices).toEqual([{ id: expect.any(String), device: 'Firefox on Linux', address: '127.0.0.1', createdAt: expect.any(String) }]);
    const dismissed = await request(t.app).delete(`/api/auth/sign-in-notices/${notices[0]!.id}`).set(firefox.auth);
    expect(dismissed.status).toBe(200);
    expect((await request(t.app).get('/api/auth/sign-in-notices').set(customer.auth)).body).toEqual({ data: [] });
    expect((await request(t.app).delete(`/api/auth/sign-in-notices/${notices[0]!.id}`).set(firefox.auth)).status).toBe(404);
  });
});

describe('staff passwords', () => {
  it('need 12 characters when an admin or auditor changes theirs', async () => {
    const auditor = await t.staff('auditor');
    const short = await request(t.app).post('/api/auth/change-password').set(auditor.auth).send({ oldPassword: auditor.password, newPassword: 'short-pass1' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([{ path: 'newPassword', message: 'New password must be at least 12 characters' }]);
    const long = await request(t.app).post('/api/auth/change-password').set(auditor.auth).send({ oldPassword: auditor.password, newPassword: 'a-long-enough-one' });
    expect(long.status).toBe(200);
  });

  it('refuses more than 72 bytes with a clear 400 instead of cutting it', async () => {
    const customer = await t.customer();
    const res = await request(t.app).post('/api/auth/change-password').set(customer.auth).send({ oldPassword: TEST_PASSWORD, newPassword: `${'x'.repeat(72)}y` });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'newPassword', message: 'New password must be at most 72 bytes (UTF-8)' }]);
  });
});

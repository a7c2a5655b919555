import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_DASHBOARD_COOKIE } from './features/transactions/queueDashboard';
import { createTestApp, type SignedIn, type TestApp } from './testing/testApp';

let t: TestApp;
let admin: SignedIn;
let customer: SignedIn;

beforeAll(async () => {
  t = await createTestApp('queue_dashboard_access');
  admin = await t.staff('admin');
  customer = await t.customer();
});

afterAll(async () => {
  await t?.close();
});

async function openSession(who: SignedIn): Promise<{ cookie: string; jar: string }> {
  const res = await request(t.app).post('/api/admin/queues/session').set(who.auth).expect(201);
  expect(res.body).toEqual({ message: 'Queue dashboard opened', data: { url: '/api/admin/queues', expiresAt: expect.any(String) } });
  const cookie = res.get('Set-Cookie')?.[0] ?? '';
  return { cookie, jar: cookie.split(';')[0] ?? '' };
}

describe('queue dashboard access (/api/admin/queues)', () => {
  it('opens with a short-lived, path-scoped, HttpOnly, SameSite=Strict cookie set by an admin POST', async () => {
    const { cookie, jar } = await openSession(admin);
    expect(cookie).toMatch(new RegExp(`^${QUEUE_DASHBOARD_COOKIE}=[A-Za-z0-9_-]{43};`));
    expect(cookie).toMatch(/; Max-Age=600;/);
    expect(cookie).toMatch(/; Path=\/api\/admin\/queues;/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    // The cookie is not the admin's token.
    expect(cookie).not.toContain(admin.token);
    const page = await request(t.app).get('/api/admin/queues').set('Cookie', jar).expect(200);
    expect(page.text).toContain('<html');
    const api = await request(t.app).get('/api/admin/queues/api/queues').set('Cookie', jar).expect(200);
    expect((api.body.queues as { name: string }[]).map((queue) => queue.name).sort()).toEqual(['ach', 'maintenance']);
    // Scripts may still use the bearer header.
    await request(t.app).get('/api/admin/queues/api/queues').set(admin.auth).expect(200);
  });

  it('is closed to anyone else: no session, a customer, a made-up or tampered cookie, a token in the URL', async () => {
    await request(t.app).get('/api/admin/queues').expect(401);
    await request(t.app).post('/api/admin/queues/session').expect(401);
    await request(t.app).post('/api/admin/queues/session').set(customer.auth).expect(403);
    await request(t.app).get('/api/admin/queues').set(customer.auth).expect(403);
    await request(t.app).get(`/api/admin/queues?token=${admin.token}`).expect(401);
    await request(t.app).get('/api/admin/queues').set('Cookie', `${QUEUE_DASHBOARD_COOKIE}=${admin.token}`).expect(401);
    const { jar } = await openSession(admin);
    const value = jar.split('=')[1]!;
    const tampered = `${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`;
    await request(t.app).get('/api/admin/queues').set('Cookie', `${QUEUE_DASHBOARD_COOKIE}=${tampered}`).expect(401);
  });

  it("ends with the admin's session: after sign-out the cookie opens nothing", async () => {
    const session = await t.newSession(admin, 'admin');
    const { jar } = await openSession(session);
    await request(t.app).get('/api/admin/queues/api/queues').set('Cookie', jar).expect(200);
    await request(t.app).post('/api/auth/signout').set(session.auth).expect(200);
    await request(t.app).get('/api/admin/queues/api/queues').set('Cookie', jar).expect(401);
  });

  it('keeps no usable secret in Redis: the session record is encrypted with the cookie, which Redis never sees', async () => {
    const { jar } = await openSession(admin);
    const keys = await t.deps.redis.keys(`${t.deps.config.REDIS_PREFIX}queues:session:*`);
    const values = await Promise.all(keys.map((key) => t.deps.redis.get(key)));
    const secret = jar.split('=')[1]!;
    for (const value of values) {
      expect(value).not.toContain(admin.token);
      expect(Buffer.from(value ?? '', 'base64').toString('latin1')).not.toContain(admin.token.slice(0, 20));
      expect(keys.join()).not.toContain(secret);
    }
    const ttl = await t.deps.redis.ttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(600);
  });
});

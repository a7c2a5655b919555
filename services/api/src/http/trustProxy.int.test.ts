import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, uniqueEmail, type TestApp } from '../testing/testApp';

const limits = { signUp: { limit: 2, windowMs: 60 * 60_000 } };
let direct: TestApp;
let proxied: TestApp;

beforeAll(async () => {
  [direct, proxied] = await Promise.all([createTestApp('trust_proxy_off', { limits }), createTestApp('trust_proxy_on', { limits, env: { TRUST_PROXY: 'loopback' } })]);
});

afterAll(async () => {
  await Promise.all([direct?.close(), proxied?.close()]);
});

const signUp = (t: TestApp, clientAddress: string) =>
  request(t.app)
    .post('/api/auth/signup')
    .set('X-Forwarded-For', clientAddress)
    .send({ firstName: 'A', lastName: 'B', email: uniqueEmail('proxy'), phone: '1', password: TEST_PASSWORD, address: 'x', state: 'y' });

describe('TRUST_PROXY', () => {
  it('unset: X-Forwarded-For is ignored, so a client cannot escape the per-address sign-up limit by claiming other addresses', async () => {
    expect((await signUp(direct, '203.0.113.1')).status).toBe(201);
    expect((await signUp(direct, '203.0.113.2')).status).toBe(201);
    expect((await signUp(direct, '203.0.113.3')).status).toBe(429);
  });

  it('set to the proxy in front (here loopback): each client behind it has a limit of its own', async () => {
    expect((await signUp(proxied, '198.51.100.1')).status).toBe(201);
    expect((await signUp(proxied, '198.51.100.1')).status).toBe(201);
    expect((await signUp(proxied, '198.51.100.1')).status).toBe(429);
    // Without the setting every client behind the proxy would share the proxy's address, and this one would be refused.
    expect((await signUp(proxied, '198.51.100.2')).status).toBe(201);
  });
});

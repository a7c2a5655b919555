import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './testing/testApp';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp('app_shell');
});

afterAll(async () => {
  await t?.close();
});

describe('the HTTP app', () => {
  it('answers /api/health', async () => {
    const res = await request(t.app).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: 'ok' } });
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await request(t.app).get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not found' });
    expect((await request(t.app).post('/api/no/such/thing').send({})).status).toBe(404);
  });

  it('serves index.html for any client-side route', async () => {
    const res = await request(t.app).get('/account/transfer');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Bank</title>');
  });

  it('gives every answer a request id, the client\'s own when it is sane', async () => {
    const res = await request(t.app).get('/api/health').set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).toBe('abc-123');
    const fresh = await request(t.app).get('/api/health').set('X-Request-Id', 'no spaces <allowed>');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets the helmet security headers and no x-powered-by', async () => {
    const res = await request(t.app).get('/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('request bodies', () => {
  it('refuses a body that is not JSON with 415', async () => {
    const res = await request(t.app).post('/api/auth/signin').set('Content-Type', 'text/plain').send('email=a');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: 'Content-Type must be application/json' });
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await request(t.app).post('/api/auth/signin').set('Content-Type', 'application/json').send('{"email": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Request body is not valid JSON' });
  });

  it('refuses a body over 100 kB with 413 in the error shape (the upload routes: bodyLimits.int.test.ts)', async () => {
    const big = JSON.stringify({ email: 'a@b.co', password: 'A'.repeat(100 * 1024) });
    const res = await request(t.app).post('/api/auth/signin').set('Content-Type', 'application/json').send(big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Request body is too large' });
  });

  it('lists zod issues with their paths on 400', async () => {
    const res = await request(t.app).post('/api/auth/signup').send({ email: 'not-an-email', password: '1' });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(expect.any(String));
    const paths = (res.body.errors as { path: string }[]).map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['firstName', 'email', 'password']));
  });
});

describe('CORS', () => {
  it('allows no other origin unless CORS_ORIGINS lists it', async () => {
    const res = await request(t.app).get('/api/health').set('Origin', 'http://elsewhere.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows the configured origins with credentials and exposes the consistency headers', async () => {
    const other = await createTestApp('app_cors', { env: { CORS_ORIGINS: 'http://app.example' } });
    try {
      const preflight = await request(other.app)
        .options('/api/auth/signin')
        .set('Origin', 'http://app.example')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type,authorization,idempotency-key');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('http://app.example');
      expect(preflight.headers['access-control-allow-credentials']).toBe('true');
      const res = await request(other.app).get('/api/health').set('Origin', 'http://app.example');
      expect(res.headers['access-control-expose-headers']).toContain('X-Event-Position');
      const stranger = await request(other.app).get('/api/health').set('Origin', 'http://evil.example');
      expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

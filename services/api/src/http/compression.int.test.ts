import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/testApp';

describe('compressed API answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('api_compression');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('compresses JSON over 1 kB with the encoding the client prefers', async () => {
    const br = await request(t.app).get('/api/openapi.json').set('Accept-Encoding', 'gzip, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(JSON.stringify(br.body).length).toBeGreaterThan(1024);
    expect(br.body).toHaveProperty('openapi');

    const gzip = await request(t.app).get('/api/openapi.json').set('Accept-Encoding', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body).toEqual(br.body);
  });

  it('sends small answers as they are', async () => {
    const res = await request(t.app).get('/api/health').set('Accept-Encoding', 'gzip, br');
    expect(res.status).toBe(200);
    expect(Number(res.headers['content-length'])).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('sends nothing compressed to a client that accepts no encoding', async () => {
    const res = await request(t.app).get('/api/openapi.json').set('Accept-Encoding', 'identity');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toHaveProperty('openapi');
  });
});

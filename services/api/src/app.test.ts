import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from './app';

describe('the HTTP app shell', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'bank-web-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Bank</title>');
  const app = createApp({ webDist: dist });

  it('answers /api/health', async () => {
    const res = await request(app).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { status: 'ok' } });
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await request(app).get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Not found');
  });

  it('serves index.html for any client-side route', async () => {
    const res = await request(app).get('/account/transfer');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Bank</title>');
  });
});

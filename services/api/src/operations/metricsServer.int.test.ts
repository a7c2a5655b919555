import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/testApp';
import { startMetricsServer, type MetricsServer } from './metricsServer';

let t: TestApp;
let metrics: MetricsServer;

beforeAll(async () => {
  t = await createTestApp('metrics_server');
  metrics = await startMetricsServer(t.deps, { port: 0, host: t.deps.config.METRICS_HOST });
});

afterAll(async () => {
  await metrics?.close();
  await t?.close();
});

describe('metrics', () => {
  it('are not served on the public port', async () => {
    const res = await request(t.app).get('/api/metrics');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not found' });
  });

  it('are served on METRICS_PORT, listening on loopback only by default', async () => {
    expect(t.deps.config.METRICS_HOST).toBe('127.0.0.1');
    expect(metrics.server.address()).toMatchObject({ address: '127.0.0.1' });
    expect(metrics.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  });

  it('are Prometheus text: requests by route, command outcomes and the projector metrics', async () => {
    await t.customer();
    await request(t.app).get('/api/health');
    await request(t.app).post('/api/contacts').send({ name: 'A', email: 'a@b.co', message: 'hi' });
    await request(t.app).post('/api/auth/signin').send({ email: 'nobody@example.com', password: 'whatever' });
    const res = await fetch(metrics.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('bank_api_http_requests_total{method="GET",route="/api/health",status="200"}');
    expect(text).toContain('bank_api_http_request_duration_seconds_bucket');
    expect(text).toContain('bank_api_commands_total{command="ReceiveContactMessage",outcome="appended"}');
    expect(text).toMatch(/bank_api_commands_total\{command="ReserveEmail",outcome="appended"\} \d+/);
    expect(text).toContain('bank_projector_events_applied_total');
    expect((await fetch(metrics.url.replace('/metrics', '/api/health'))).status).toBe(404);
  });
});

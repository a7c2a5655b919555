import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../app';
import { createTestApp, type TestApp } from '../testing/testApp';
import { checkReadiness, MAX_PROJECTOR_LAG_MS } from './readiness';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp('operations');
});

afterAll(async () => {
  await t?.close();
});

describe('GET /ready', () => {
  it('is 200 when database, Redis, event store and projector are fine', async () => {
    await t.customer();
    const res = await request(t.app).get('/api/ready');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'ready',
      database: { ok: true },
      redis: { ok: true },
      eventStore: { ok: true, position: expect.stringMatching(/^\d+$/) },
      projector: { ok: true, lagMs: 0 },
    });
  });

  it('reports Redis as not ready when it does not answer, without connection details', async () => {
    const broken = { ...t.deps, redis: { ping: () => Promise.reject(new Error('connect ECONNREFUSED redis://secret-host:6379')) } as unknown as typeof t.deps.redis };
    const readiness = await checkReadiness(broken);
    expect(readiness.ready).toBe(false);
    expect(readiness.checks.redis).toEqual({ ok: false, error: 'unavailable' });
  });
});

describe('GET /ready with the projector stopped', () => {
  let lagging: TestApp;
  beforeAll(async () => {
    lagging = await createTestApp('operations_lag', { consistencyTimeoutMs: 200 });
  });
  afterAll(async () => {
    await lagging?.close();
  });

  it('is 503 when the oldest event not in the read models is older than the allowed lag', async () => {
    await lagging.projector.stop();
    await request(lagging.app).post('/api/contacts').send({ name: 'A', email: 'a@b.co', message: 'unprojected' }).expect(201);
    // Readers see the event once every older transaction in the cluster has ended (the log's visibility fence: a
    // neighbour's long transaction holds it back); until then readiness cannot know of it.
    const applied = await lagging.deps.projection.appliedPosition();
    await vi.waitFor(async () => expect(await lagging.deps.store.readAll({ ...(applied ? { after: applied } : {}), limit: 1 })).toHaveLength(1), { timeout: 30_000, interval: 20 });
    expect((await request(lagging.app).get('/api/ready')).status).toBe(200);
    const later = () => new Date(Date.now() + MAX_PROJECTOR_LAG_MS + 60_000);
    const res = await request(createApp({ ...lagging.deps, now: later })).get('/api/ready');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ message: 'Not ready', data: { status: 'not ready', projector: { ok: false, error: 'lagging' } } });
  });
});

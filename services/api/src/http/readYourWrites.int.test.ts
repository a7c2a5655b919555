import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { createTestApp, TEST_PASSWORD, uniqueEmail, type TestApp } from '../testing/testApp';
import { userShape } from '../features/users/userShape';

describe('read-your-writes with a running projector', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('ryw_running');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a query carrying X-Consistent-Position of a command sees that command, without X-Stale', async () => {
    const customer = await t.customer();
    const change = await request(t.app).post('/api/cards/requests').set(customer.auth).send({});
    const position = change.headers['x-event-position'] as string;
    expect(position).toMatch(/^\d+$/);
    const me = await request(t.app).get('/api/user/me').set(customer.auth).set('X-Consistent-Position', position);
    expect(me.status).toBe(200);
    expect(me.headers['x-stale']).toBeUndefined();
  });

  it('answers a position far beyond the head at once, stale, without polling the store for it', async () => {
    const customer = await t.customer();
    const head = await t.store.headPosition();
    const beyond = (BigInt(head ? t.store.positionToken(head) : '0') + 1_000_000_000n).toString();
    let lookups = 0;
    const store = {
      ...t.store,
      resolvePositionToken: (token: string) => {
        lookups += 1;
        return t.store.resolvePositionToken(token);
      },
    };
    // The test app waits up to 20 s for the projector: polling until then would far outlast this test's own lookups.
    const app = createApp({ ...t.deps, store });
    const me = await request(app).get('/api/user/me').set(customer.auth).set('X-Consistent-Position', beyond);
    expect(me.status).toBe(200);
    expect(me.headers['x-stale']).toBe('true');
    expect(lookups).toBe(1);
  });

  it('answers 400 for a malformed X-Consistent-Position', async () => {
    const customer = await t.customer();
    const res = await request(t.app).get('/api/user/me').set(customer.auth).set('X-Consistent-Position', 'yesterday');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'X-Consistent-Position', message: 'X-Consistent-Position must be a position number' }]);
  });
});

describe('read-your-writes with the projector stopped', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('ryw_stopped', { consistencyTimeoutMs: 300 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('commands answer after the wait with X-Stale: true, showing the user from its own events', async () => {
    await t.projector.stop();
    const email = uniqueEmail('stale');
    const res = await request(t.app)
      .post('/api/auth/signup')
      .send({ firstName: 'Stale', lastName: 'Reader', email, phone: '1', password: TEST_PASSWORD, address: 'x', state: 'y' });
    expect(res.status).toBe(201);
    expect(res.headers['x-stale']).toBe('true');
    expect(userShape.parse(res.body.data)).toMatchObject({ email, firstName: 'Stale', verificationStatus: 'awaiting', account: { savings: 0, checking: 0 } });
    const position = res.headers['x-event-position'] as string;
    const health = await request(t.app).get('/api/health').set('X-Consistent-Position', position);
    expect(health.status).toBe(200);
    expect(health.headers['x-stale']).toBe('true');
  });
});

describe('a staff posting while the projector is behind', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('ryw_posting', { consistencyTimeoutMs: 300 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 201 with the transaction from its own event, X-Stale, instead of failing', async () => {
    const customer = await t.customer();
    const admin = await t.staff('admin');
    await t.projector.stop();
    const res = await request(t.app)
      .post(`/api/transaction/admin/${customer.userId}`)
      .set(admin.auth)
      .send({ amount: 12.34, transactionType: 'credit', account: 'savings', date: '2026-01-15', description: 'Correction', reason: 'Branch deposit' });
    expect(res.status).toBe(201);
    expect(res.headers['x-stale']).toBe('true');
    expect(res.body.data).toMatchObject({ amount: 12.34, transactionType: 'credit', account: 'savings', description: 'Correction', status: 'completed', balanceAfter: 12.34 });
    expect(res.body.data.date).toBe('2026-01-15T00:00:00.000Z');
  });
});

import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, uniqueEmail, type SignedIn, type TestApp } from '../testing/testApp';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp('idempotency');
  admin = await t.staff('admin');
});

afterAll(async () => {
  await t?.close();
});

async function cardRequests(userId: string): Promise<number> {
  const events = await t.store.readStream(`customer-${userId}`);
  return events.filter((event) => event.type === 'CardRequested').length;
}

describe('Idempotency-Key', () => {
  it('the same key twice: one effect, the same answer (status, body, X-Event-Position), marked as replayed', async () => {
    const customer = await t.customer();
    const first = await request(t.app).post('/api/cards/requests').set(customer.auth).set('Idempotency-Key', 'card-1').send({ cardType: 'travel-hotel' });
    const second = await request(t.app).post('/api/cards/requests').set(customer.auth).set('Idempotency-Key', 'card-1').send({ cardType: 'travel-hotel' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['x-event-position']).toBe(first.headers['x-event-position']);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await cardRequests(customer.userId)).toBe(1);
    await request(t.app).post('/api/cards/requests').set(customer.auth).set('Idempotency-Key', 'card-2').send({ cardType: 'travel-hotel' }).expect(201);
    expect(await cardRequests(customer.userId)).toBe(2);
  });

  it('sign-up with the same key twice creates one customer', async () => {
    const body = { firstName: 'Once', lastName: 'Only', email: uniqueEmail('once'), phone: '1', password: TEST_PASSWORD, address: 'x', state: 'y' };
    const first = await request(t.app).post('/api/auth/signup').set('Idempotency-Key', 'signup-once').send(body);
    const second = await request(t.app).post('/api/auth/signup').set('Idempotency-Key', 'signup-once').send(body);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.data._id).toBe(first.body.data._id);
    const { rows } = await t.deps.pool.query('SELECT id FROM rm.users WHERE email_lower = $1', [body.email]);
    expect(rows).toHaveLength(1);
  });

  it('concurrent duplicates: one effect, both answered alike', async () => {
    const customer = await t.customer();
    const send = () => request(t.app).post('/api/cards/requests').set(customer.auth).set('Idempotency-Key', 'racing').send({});
    const answers = await Promise.all([send(), send(), send()]);
    for (const answer of answers) expect([201, 409]).toContain(answer.status);
    expect(answers.filter((answer) => answer.status === 201).length).toBeGreaterThanOrEqual(1);
    expect(await cardRequests(customer.userId)).toBe(1);
  });

  it('remembers a refusal too: the same key gives the same 422', async () => {
    const customer = await t.customer();
    const send = () =>
      request(t.app).post('/api/auth/change-password').set(customer.auth).set('Idempotency-Key', 'pw-1').send({ oldPassword: 'wrong-password', newPassword: 'whatever1' });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(422);
    expect(second.status).toBe(422);
    expect(second.headers['idempotent-replayed']).toBe('true');
  });

  it('the same key with a different request is 422, and keys are per user', async () => {
    const a = await t.customer();
    const b = await t.customer();
    await request(t.app).post('/api/cards/requests').set(a.auth).set('Idempotency-Key', 'shared-key').send({ cardType: 'rewards' }).expect(201);
    const changed = await request(t.app).post('/api/cards/requests').set(a.auth).set('Idempotency-Key', 'shared-key').send({ cardType: 'business' });
    expect(changed.status).toBe(422);
    expect(changed.body).toEqual({ message: 'This Idempotency-Key was already used for a different request' });
    const other = await request(t.app).post('/api/cards/requests').set(b.auth).set('Idempotency-Key', 'shared-key').send({ cardType: 'rewards' });
    expect(other.status).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await cardRequests(b.userId)).toBe(1);
  });

  it('even when Redis forgot the key, the events derived from it are not appended twice', async () => {
    const send = () => request(t.app).post('/api/contacts').set('Idempotency-Key', 'contact-forgotten').send({ name: 'A', email: 'a@b.co', message: 'once' });
    const first = await send();
    expect(first.status).toBe(201);
    const keys = await t.deps.redis.keys(`${t.deps.config.REDIS_PREFIX}idem:*`);
    await t.deps.redis.del(...keys);
    const again = await send();
    expect(again.status).toBe(201);
    const list = await request(t.app).get('/api/contacts').set(admin.auth);
    expect((list.body.data as { message: string }[]).filter((contact) => contact.message === 'once')).toHaveLength(1);
  });

  it('admin balance edits with the same key are applied once', async () => {
    const customer = await t.customer();
    const send = () =>
      request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).set('Idempotency-Key', 'fund-1').send({ savings: 500, checking: 0, number: customer.accountNumber });
    await send().expect(200);
    await send().expect(200);
    const events = await t.store.readStream(`account-${customer.userId}`);
    expect(events.filter((event) => event.type === 'BalanceAdjusted')).toHaveLength(1);
  });

  it('refuses an unusable key with 400', async () => {
    const res = await request(t.app).post('/api/contacts').set('Idempotency-Key', 'x'.repeat(300)).send({ name: 'A', email: 'a@b.co', message: 'm' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('Idempotency-Key');
  });
});

import { createHash } from 'node:crypto';
import { parseKeyringText } from '@bank/platform';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, uniqueEmail, type SignedIn, type TestApp } from '../testing/testApp';
import { errorHandler } from './errorHandler';
import { idempotency, idempotencyRedisKey, requestFingerprint } from './idempotency';
import { jsonBody } from './jsonBody';
import { requestDeadline } from './requestDeadline';

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

  it("leaves a transfer's key to the transfer route, whose record is the log: no claim or answer is stored in Redis", async () => {
    const customer = await t.customer();
    const profile = { firstName: 'Ada', lastName: 'Lovelace', email: customer.email, phone: '555-0100', location: { address: '1 Analytical Way', state: 'NY' }, paymentPin: '246810' };
    await request(t.app).put(`/api/user/admin/${customer.userId}`).set(admin.auth).send(profile).expect(200);
    await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: 100, checking: 0, number: customer.accountNumber }).expect(200);
    const body = { from: 'savings', amount: 12, accountNumber: '987654321', routingNumber: '021000021', bankName: 'Other Bank', accountType: 'checking', to: 'Grace', paymentPin: '246810' };
    const send = () => request(t.app).post('/api/transaction/transfer').set(customer.auth).set('Idempotency-Key', 'pay-grace').send(body);
    const first = await send();
    expect(first.status).toBe(201);
    const second = await send();
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await t.deps.redis.exists(idempotencyRedisKey(t.deps.config.REDIS_PREFIX, `user:${customer.userId}`, 'pay-grace'))).toBe(0);
    const debits = (await t.store.readStream(`account-${customer.userId}`)).filter((event) => event.type === 'AccountDebited');
    expect(debits).toHaveLength(1);
  });

  it('refuses an unusable key with 400', async () => {
    const res = await request(t.app).post('/api/contacts').set('Idempotency-Key', 'x'.repeat(300)).send({ name: 'A', email: 'a@b.co', message: 'm' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('Idempotency-Key');
  });
});

describe('idempotency records in Redis', () => {
  async function records(): Promise<Record<string, unknown>[]> {
    const keys = await t.deps.redis.keys(`${t.deps.config.REDIS_PREFIX}idem:*`);
    const texts = keys.length > 0 ? await t.deps.redis.mget(...keys) : [];
    return texts.filter((text): text is string => text !== null).map((text) => JSON.parse(text) as Record<string, unknown>);
  }

  it('hold a keyed fingerprint computed without the payment pin, so a copy of Redis cannot test pin guesses', async () => {
    const customer = await t.customer();
    const path = `/user/admin/${customer.userId}`;
    const body = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: customer.email,
      phone: '555-0100',
      location: { address: '1 Analytical Way', state: 'NY' },
      verificationStatus: 'verified',
      isBlocked: false,
      paymentPin: '482913',
    };
    const res = await request(t.app).put(`/api${path}`).set(admin.auth).set('Idempotency-Key', 'pin-record').send(body);
    expect(res.status).toBe(200);
    const [record] = (await records()).filter((entry) => JSON.stringify(entry.body).includes(customer.userId));
    expect(record).toBeDefined();
    expect(JSON.stringify(record)).not.toContain('482913');
    expect(record?.keyId).toBe(t.deps.keys.idempotency.current.id);
    // What it used to be: a plain SHA-256 of the request, which 10^6 guesses of the pin would find.
    const unkeyed = createHash('sha256').update(`PUT /api${path}\n${JSON.stringify(body)}`).digest('hex');
    expect(record?.fingerprint).not.toBe(unkeyed);
    // Keyed, and the same whatever the pin: the pin is not part of it.
    const key = t.deps.keys.idempotency.current.key;
    expect(record?.fingerprint).toBe(requestFingerprint(key, { method: 'PUT', baseUrl: '/api', path, body: { ...body, paymentPin: '000000' } }));
    expect(record?.fingerprint).not.toBe(requestFingerprint(key, { method: 'PUT', baseUrl: '/api', path, body: { ...body, phone: '555-0199' } }));
  });

  it('treat requests that differ only in secret fields as the same request (the first answer), others as different (422)', async () => {
    const customer = await t.customer();
    const send = (body: object) => request(t.app).post('/api/auth/change-password').set(customer.auth).set('Idempotency-Key', 'pw-secret-only').send(body);
    const first = await send({ oldPassword: 'wrong-password', newPassword: 'whatever1' });
    expect(first.status).toBe(422);
    const retried = await send({ oldPassword: TEST_PASSWORD, newPassword: 'whatever2' });
    expect(retried.status).toBe(422);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    const different = await send({ oldPassword: TEST_PASSWORD, newPassword: 'whatever2', extra: 1 });
    expect(different.status).toBe(422);
    expect(different.body).toEqual({ message: 'This Idempotency-Key was already used for a different request' });
  });

  /** A small app with the middleware alone, on the test Redis, with the given idempotency keys. */
  function miniApp(keys: string, answer: object) {
    const app = express();
    const deps = { ...t.deps, keys: { ...t.deps.keys, idempotency: parseKeyringText('idempotency', 'test', keys) } };
    app.use(...jsonBody(), idempotency(deps));
    app.post('/thing', (_req, res) => {
      res.status(201).json(answer);
    });
    app.use(errorHandler(t.deps.logger));
    return app;
  }
  const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');

  it('never store an answer that carries a token or a secret', async () => {
    const before = (await records()).length;
    const app = miniApp(`m1:${key(1)}`, { message: 'ok', token: 'a-session-token' });
    await request(app).post('/thing').set('Idempotency-Key', 'secret-answer').send({ a: 1 }).expect(201);
    expect(await records()).toHaveLength(before);
    const again = await request(app).post('/thing').set('Idempotency-Key', 'secret-answer').send({ a: 1 }).expect(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });

  it('still recognise a record made with the previous key after a rotation, until that key is retired', async () => {
    const send = (app: express.Express) => request(app).post('/thing').set('Idempotency-Key', 'rotation').send({ a: 2 });
    await send(miniApp(`r1:${key(3)}`, { message: 'first' })).expect(201);
    const rotated = await send(miniApp(`r2:${key(4)},r1:${key(3)}`, { message: 'second' }));
    expect(rotated.body).toEqual({ message: 'first' });
    expect(rotated.headers['idempotent-replayed']).toBe('true');
    const retired = await send(miniApp(`r2:${key(4)}`, { message: 'third' }));
    expect(retired.status).toBe(422);
  });
});

describe('a claim on a key (the lease)', () => {
  const LEASE_MS = 300;
  function slowApp(runs: { n: number }, ms: number) {
    const app = express();
    app.use(...jsonBody(), idempotency(t.deps, { leaseMs: LEASE_MS, waitMs: 5_000 }));
    app.post('/slow', (_req, res) => {
      runs.n += 1;
      setTimeout(() => res.status(201).json({ message: 'done', run: runs.n }), ms);
    });
    app.use(errorHandler(t.deps.logger));
    return app;
  }

  it('is renewed while its request runs longer than the lease: a duplicate waits for the first answer, the command runs once', async () => {
    const runs = { n: 0 };
    const app = slowApp(runs, 4 * LEASE_MS);
    // supertest sends on then(): started now, answered after four leases.
    const first = request(app)
      .post('/slow')
      .set('Idempotency-Key', 'long-runner')
      .send({})
      .then((answer) => answer);
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
    const second = await request(app).post('/slow').set('Idempotency-Key', 'long-runner').send({});
    expect((await first).status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(runs.n).toBe(1);
  });

  it('keeps the stored answer for 24 hours: a renewal never shortens it', async () => {
    const runs = { n: 0 };
    const app = slowApp(runs, 2 * LEASE_MS);
    await request(app).post('/slow').set('Idempotency-Key', 'kept-answer').send({}).expect(201);
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
    const keys = await t.deps.redis.keys(`${t.deps.config.REDIS_PREFIX}idem:*`);
    const ttls = await Promise.all(keys.map((key) => t.deps.redis.pttl(key)));
    const texts = await t.deps.redis.mget(...keys);
    const kept = keys.findIndex((_key, i) => texts[i]?.includes('"run":1') ?? false);
    expect(kept).toBeGreaterThanOrEqual(0);
    expect(ttls[kept]).toBeGreaterThan(23 * 60 * 60 * 1_000);
  });

  it('left by a holder that is gone (crashed, or its release never reached Redis) lapses after the lease: the retry runs', async () => {
    const runs = { n: 0 };
    const app = slowApp(runs, 10);
    // A first request records the key; its record is then put back as a vanished holder's claim would be.
    const keysBefore = new Set(await t.deps.redis.keys(`${t.deps.config.REDIS_PREFIX}idem:*`));
    await request(app).post('/slow').set('Idempotency-Key', 'orphaned').send({}).expect(201);
    const [redisKey] = (await t.deps.redis.keys(`${t.deps.config.REDIS_PREFIX}idem:*`)).filter((key) => !keysBefore.has(key));
    expect(redisKey).toBeDefined();
    const record = JSON.parse((await t.deps.redis.get(redisKey!))!) as { fingerprint: string; keyId: string };
    await t.deps.redis.set(redisKey!, JSON.stringify({ state: 'pending', fingerprint: record.fingerprint, keyId: record.keyId }), 'PX', LEASE_MS);
    const started = Date.now();
    const retry = await request(app).post('/slow').set('Idempotency-Key', 'orphaned').send({});
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(LEASE_MS - 50);
    expect(runs.n).toBe(2);
  });

  it('is not taken by a duplicate the request deadline answered while it waited: the key is free for the next retry', async () => {
    const runs = { n: 0 };
    const app = express();
    // The deadline (as the API mounts it, first) only for requests marked for it: here, the waiting duplicate.
    app.use(requestDeadline({ ms: 100, logger: t.deps.logger, skip: (req) => req.get('X-Test-Deadline') === undefined }));
    app.use(...jsonBody(), idempotency(t.deps, { leaseMs: LEASE_MS, waitMs: 5_000 }));
    app.post('/flaky', (_req, res) => {
      runs.n += 1;
      // The first run answers 503 late (not remembered: the key is released); later runs answer at once.
      if (runs.n === 1) setTimeout(() => res.status(503).json({ message: 'briefly unavailable' }), 3 * LEASE_MS);
      else res.status(201).json({ message: 'done', run: runs.n });
    });
    app.use(errorHandler(t.deps.logger));
    const first = request(app)
      .post('/flaky')
      .set('Idempotency-Key', 'deadline-while-waiting')
      .send({})
      .then((answer) => answer);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Waits for the first, and is answered 503 by its deadline before the first lets the key go.
    const waiting = await request(app).post('/flaky').set('Idempotency-Key', 'deadline-while-waiting').set('X-Test-Deadline', '1').send({});
    expect(waiting.status).toBe(503);
    expect((await first).status).toBe(503);
    // The key is free again (not held by the duplicate that was answered): two leases after the first let it go, no
    // claim on it is in Redis (a duplicate that took it would renew its claim for good), and the retry runs. Counted
    // in Redis, not timed: under load a retry that runs at once took longer than a lease.
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
    const keys = await t.deps.redis.keys(`${t.deps.config.REDIS_PREFIX}idem:*`);
    const records = keys.length > 0 ? await t.deps.redis.mget(...keys) : [];
    expect(records.filter((text) => text?.includes('"state":"pending"'))).toEqual([]);
    const retry = await request(app).post('/flaky').set('Idempotency-Key', 'deadline-while-waiting').send({});
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(runs.n).toBe(2);
  });
});


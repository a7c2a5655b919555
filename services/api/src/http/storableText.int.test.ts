import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, uniqueEmail, type SignedIn, type TestApp } from '../testing/testApp';
import { UNSTORABLE_TEXT_MESSAGE } from './storableText';

/** Found by the fuzz test (hostileInput.int.test.ts): text PostgreSQL cannot store was a 500 on every route that stored or searched it. */
let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp('storable_text');
  admin = await t.staff('admin');
});

afterAll(async () => {
  await t?.close();
});

async function eventCount(): Promise<number> {
  const { rows } = await t.deps.pool.query<{ n: string }>('SELECT count(*) AS n FROM eventstore.events');
  return Number(rows[0]?.n);
}

describe('text that cannot be stored', () => {
  it('a NUL or an unpaired surrogate in a body is 400 naming the field, and nothing is appended', async () => {
    const before = await eventCount();
    const signup = { firstName: 'Nul\u0000', lastName: 'B', email: uniqueEmail('nul'), phone: '1', password: TEST_PASSWORD, address: 'x', state: 'y' };
    const res = await request(t.app).post('/api/auth/signup').send(signup);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: UNSTORABLE_TEXT_MESSAGE, errors: [{ path: 'firstName', message: UNSTORABLE_TEXT_MESSAGE }] });
    const surrogate = await request(t.app).post('/api/contacts').set('Content-Type', 'application/json').send('{"name":"A","email":"a@b.co","message":"\\ud800"}');
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.errors).toEqual([{ path: 'message', message: UNSTORABLE_TEXT_MESSAGE }]);
    const nested = await request(t.app).post('/api/beneficiaries').set(admin.auth).send({ name: 'ok', accountNumber: '123456789', extra: { ['k\u0000']: 1 } });
    expect(nested.status).toBe(400);
    expect(nested.body.errors).toEqual([{ path: 'extra.k\u0000', message: UNSTORABLE_TEXT_MESSAGE }]);
    expect(await eventCount()).toBe(before);
    // A paired surrogate (an emoji) is fine.
    await request(t.app).post('/api/contacts').send({ name: 'Emoji 😀', email: 'a@b.co', message: 'hi' }).expect(201);
  });

  it('a NUL in a query or a path is 400', async () => {
    const search = await request(t.app).get('/api/user/admin?search=%00').set(admin.auth);
    expect(search.status).toBe(400);
    expect(search.body).toEqual({ message: UNSTORABLE_TEXT_MESSAGE, errors: [{ path: 'search', message: UNSTORABLE_TEXT_MESSAGE }] });
    expect((await request(t.app).get('/api/audit/log?actor=a%00b').set(admin.auth)).status).toBe(400);
    const byEmail = await request(t.app).get('/api/user/admin/email/a%00b%40example.com').set(admin.auth);
    expect(byEmail.status).toBe(400);
    expect(byEmail.body).toEqual({ message: UNSTORABLE_TEXT_MESSAGE });
  });
});

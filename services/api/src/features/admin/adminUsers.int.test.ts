import request from 'supertest';
import { verifyPin } from '@bank/transfers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, uniqueEmail, type SignedIn, type TestApp } from '../../testing/testApp';
import { adminUserShape, userShape } from '../users/userShape';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp('admin_users');
  admin = await t.staff('admin');
});

afterAll(async () => {
  await t?.close();
});

const editBody = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Edited',
  lastName: 'Name',
  email: uniqueEmail('edited'),
  phone: '555-0000',
  location: { address: '9 Admin Ave', state: 'TX' },
  verificationStatus: 'verified',
  isBlocked: false,
  ...overrides,
});

describe('GET /user/admin', () => {
  it('lists customers newest first, without staff or closed customers; search, limit and offset', async () => {
    const first = await t.customer({ firstName: 'Zebulon', lastName: 'Searchable' });
    const second = await t.customer({ firstName: 'Yolanda', lastName: 'Searchable' });
    const res = await request(t.app).get('/api/user/admin').set(admin.auth);
    expect(res.status).toBe(200);
    const users = (res.body.data as unknown[]).map((user) => userShape.parse(user));
    expect(users.every((user) => user.role === 'customer')).toBe(true);
    const ids = users.map((user) => user._id);
    expect(ids.indexOf(second.userId)).toBeLessThan(ids.indexOf(first.userId));
    const found = await request(t.app).get('/api/user/admin').query({ search: 'SEARCHABLE' }).set(admin.auth);
    expect((found.body.data as { _id: string }[]).map((user) => user._id)).toEqual([second.userId, first.userId]);
    const byNumber = await request(t.app).get('/api/user/admin').query({ search: first.accountNumber }).set(admin.auth);
    expect((byNumber.body.data as { _id: string }[]).map((user) => user._id)).toEqual([first.userId]);
    const page = await request(t.app).get('/api/user/admin').query({ search: 'searchable', limit: 1, offset: 1 }).set(admin.auth);
    expect((page.body.data as { _id: string }[]).map((user) => user._id)).toEqual([first.userId]);
  });

  it('answers 400 for a bad limit or offset', async () => {
    const res = await request(t.app).get('/api/user/admin').query({ limit: 0 }).set(admin.auth);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'limit', message: 'Limit must be at least 1' }]);
    expect((await request(t.app).get('/api/user/admin').query({ offset: 'x' }).set(admin.auth)).status).toBe(400);
    const tooMany = await request(t.app).get('/api/user/admin').query({ limit: 1001 }).set(admin.auth);
    expect(tooMany.body.errors).toEqual([{ path: 'limit', message: 'Limit must be at most 1000' }]);
  });
});

describe('GET /user/admin/:id and /user/admin/email/:email', () => {
  it("answers the user with the customer's card requests", async () => {
    const customer = await t.customer();
    const card = await request(t.app).post('/api/cards/requests').set(customer.auth).send({ cardType: 'rewards' });
    expect(card.status).toBe(201);
    expect(card.body).toEqual({ message: 'Card request sent we will get back to you' });
    await request(t.app).post('/api/cards/requests').set(customer.auth).send({}).expect(201);
    const res = await request(t.app).get(`/api/user/admin/${customer.userId}`).set(admin.auth);
    expect(res.status).toBe(200);
    const user = adminUserShape.parse(res.body.data);
    expect(user._id).toBe(customer.userId);
    expect(user.cardRequests.map((request) => request.cardType).sort()).toEqual([null, 'rewards'].sort());
    const byEmail = await request(t.app).get(`/api/user/admin/email/${encodeURIComponent(customer.email.toUpperCase())}`).set(admin.auth);
    expect(byEmail.status).toBe(200);
    expect(adminUserShape.parse(byEmail.body.data)._id).toBe(customer.userId);
  });

  it("answers 404 'User not found' for unknown ids and e-mails", async () => {
    for (const path of ['/api/user/admin/00000000-0000-4000-8000-000000000000', '/api/user/admin/nope', '/api/user/admin/email/nobody%40example.com']) {
      const res = await request(t.app).get(path).set(admin.auth);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ message: 'User not found' });
    }
  });

  it('answers 400 for an invalid card type', async () => {
    const customer = await t.customer();
    const res = await request(t.app).post('/api/cards/requests').set(customer.auth).send({ cardType: 'platinum' });
    expect(res.status).toBe(400);
  });
});

describe('PUT /user/admin/account/:id', () => {
  it('sets each balance by an adjustment naming the admin, visible in the history', async () => {
    const customer = await t.customer();
    const res = await request(t.app)
      .put(`/api/user/admin/account/${customer.userId}`)
      .set(admin.auth)
      .send({ savings: 1250.5, checking: '99.99', number: customer.accountNumber, reason: 'Opening deposit' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Account updated successfully');
    expect(userShape.parse(res.body.data).account).toEqual({ number: customer.accountNumber, savings: 1250.5, checking: 99.99 });
    const { rows } = await t.deps.pool.query<{ account: string; amount_cents: string; kind: string; actor_id: string; reason: string }>(
      'SELECT account, amount_cents, kind, actor_id, reason FROM rm.transactions WHERE user_id = $1 ORDER BY account',
      [customer.userId],
    );
    expect(rows).toEqual([
      { account: 'checking', amount_cents: '9999', kind: 'adjustment', actor_id: admin.userId, reason: 'Opening deposit' },
      { account: 'savings', amount_cents: '125050', kind: 'adjustment', actor_id: admin.userId, reason: 'Opening deposit' },
    ]);
    const down = await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: 1000, checking: 99.99, number: customer.accountNumber });
    expect(down.body.data.account).toMatchObject({ savings: 1000, checking: 99.99 });
    const events = await t.store.readStream(`account-${customer.userId}`);
    const adjustments = events.filter((event) => event.type === 'BalanceAdjusted');
    expect(adjustments).toHaveLength(3);
    expect(adjustments.at(-1)?.data).toMatchObject({ direction: 'debit', amountCents: 25050, previousCents: 125050, newCents: 100000, adminId: admin.userId });
    expect(adjustments.at(-1)?.metadata).toMatchObject({ actorId: admin.userId, actorRole: 'admin' });
  });

  it('moves the customer to a new unique number; a taken number is 409, a malformed one 400', async () => {
    const customer = await t.customer();
    const other = await t.customer();
    const taken = await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: 0, checking: 0, number: other.accountNumber });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ message: 'Account number already in use' });
    const bad = await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: 0, checking: 0, number: '123' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: 'number', message: 'Account number must be 10 digits' }]);
    const fresh = '1' + String(Date.now()).slice(-9);
    const moved = await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: 0, checking: 0, number: fresh });
    expect(moved.status).toBe(200);
    expect(moved.body.data.account.number).toBe(fresh);
    // The old number is free again.
    const reuse = await request(t.app).put(`/api/user/admin/account/${other.userId}`).set(admin.auth).send({ savings: 0, checking: 0, number: customer.accountNumber });
    expect(reuse.status).toBe(200);
  });

  it("answers 400 'All fields are required' when a balance or the number is missing, and for negative balances", async () => {
    const customer = await t.customer();
    const res = await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ checking: 1, number: customer.accountNumber });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('All fields are required');
    const negative = await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: -1, checking: 1, number: customer.accountNumber });
    expect(negative.status).toBe(400);
    const decimals = await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: 1.234, checking: 1, number: customer.accountNumber });
    expect(decimals.status).toBe(400);
    expect(decimals.body.message).toBe('Amount must have at most two decimals');
  });

  it("answers 404 for a staff user's or unknown id", async () => {
    const res = await request(t.app).put(`/api/user/admin/account/${admin.userId}`).set(admin.auth).send({ savings: 1, checking: 1, number: '1234567890' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'User not found' });
  });
});

describe('PUT /user/admin/:id', () => {
  it('edits profile, verification status, block and a payment pin stored as a keyed hash', async () => {
    const customer = await t.customer();
    const body = editBody({ isBlocked: true, paymentPin: '123456' });
    const res = await request(t.app).put(`/api/user/admin/${customer.userId}`).set(admin.auth).send(body);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('User updated successfully');
    expect(userShape.parse(res.body.data)).toMatchObject({
      firstName: 'Edited',
      lastName: 'Name',
      email: body.email,
      phone: '555-0000',
      location: { address: '9 Admin Ave', state: 'TX' },
      verificationStatus: 'verified',
      isBlocked: true,
      hasPaymentPin: true,
    });
    const { rows } = await t.deps.pool.query<{ payment_pin_hash: string }>('SELECT payment_pin_hash FROM rm.users WHERE id = $1', [customer.userId]);
    const stored = rows[0]?.payment_pin_hash ?? '';
    expect(stored).toMatch(/^pin\$[A-Za-z0-9_-]+\$[0-9a-f]{64}$/);
    expect(await verifyPin(t.deps.pinKeys, customer.userId, '123456', stored)).toBe(true);
    expect(await verifyPin(t.deps.pinKeys, customer.userId, '654321', stored)).toBe(false);
    const events = await t.store.readStream(`customer-${customer.userId}`);
    expect(JSON.stringify(events.map((event) => event.data))).not.toContain('123456');
    await t.signIn(body.email, TEST_PASSWORD);
  });

  it("answers 422 'All fields are required' when a profile field is missing or empty", async () => {
    const customer = await t.customer();
    for (const body of [editBody({ firstName: '' }), editBody({ phone: undefined }), editBody({ location: { address: 'x', state: '' } }), editBody({ location: undefined })]) {
      const res = await request(t.app).put(`/api/user/admin/${customer.userId}`).set(admin.auth).send(body);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'All fields are required' });
    }
  });

  it('answers 400 for a pin that is not 6 digits and for an unknown verification status', async () => {
    const customer = await t.customer();
    const pin = await request(t.app).put(`/api/user/admin/${customer.userId}`).set(admin.auth).send(editBody({ paymentPin: '12345' }));
    expect(pin.status).toBe(400);
    expect(pin.body.errors).toEqual([{ path: 'paymentPin', message: 'Payment pin must be 6 digits' }]);
    const status = await request(t.app).put(`/api/user/admin/${customer.userId}`).set(admin.auth).send(editBody({ verificationStatus: 'great' }));
    expect(status.status).toBe(400);
  });

  it("answers 409 for another user's e-mail", async () => {
    const customer = await t.customer();
    const other = await t.customer();
    const res = await request(t.app).put(`/api/user/admin/${customer.userId}`).set(admin.auth).send(editBody({ email: other.email }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Email already registered' });
  });

  it('a disabled customer cannot sign in (403) and their token stops working; enabling restores both', async () => {
    const customer = await t.customer();
    const disabled = await request(t.app).put(`/api/user/admin/${customer.userId}`).set(admin.auth).send(editBody({ email: customer.email, isDisabled: true }));
    expect(disabled.body.data.isDisabled).toBe(true);
    const signIn = await request(t.app).post('/api/auth/signin').send({ email: customer.email, password: TEST_PASSWORD });
    expect(signIn.status).toBe(403);
    expect(signIn.body).toEqual({ message: 'Your account has been disabled, please contact bank support' });
    const me = await request(t.app).get('/api/user/me').set(customer.auth);
    expect(me.status).toBe(401);
    await request(t.app).put(`/api/user/admin/${customer.userId}`).set(admin.auth).send(editBody({ email: customer.email, isDisabled: false })).expect(200);
    expect((await request(t.app).get('/api/user/me').set(customer.auth)).status).toBe(200);
  });
});

describe('DELETE /user/admin/:id', () => {
  it('closes the customer: gone from lists and look-ups, no sign-in, token dead, history kept', async () => {
    const customer = await t.customer({ lastName: 'Closable' });
    const res = await request(t.app).delete(`/api/user/admin/${customer.userId}`).set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'User deleted successfully' });
    expect(res.headers['x-event-position']).toMatch(/^\d+$/);
    const list = await request(t.app).get('/api/user/admin').query({ search: 'closable' }).set(admin.auth);
    expect(list.body.data).toEqual([]);
    expect((await request(t.app).get(`/api/user/admin/${customer.userId}`).set(admin.auth)).status).toBe(404);
    expect((await request(t.app).post('/api/auth/signin').send({ email: customer.email, password: TEST_PASSWORD })).status).toBe(401);
    expect((await request(t.app).get('/api/user/me').set(customer.auth)).status).toBe(401);
    const events = await t.store.readStream(`customer-${customer.userId}`);
    expect(events.map((event) => event.type)).toEqual(['CustomerRegistered', 'CustomerClosed']);
    expect((await request(t.app).delete(`/api/user/admin/${customer.userId}`).set(admin.auth)).status).toBe(404);
  });
});

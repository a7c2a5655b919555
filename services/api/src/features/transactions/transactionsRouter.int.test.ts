import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '@bank/testkit';
import { achDriver } from '../../testing/achDriver';
import { createTransactionsHarness, TEST_PIN, type TransactionsHarness } from './testing/transactionsHarness';

let h: TransactionsHarness;

beforeAll(async () => {
  h = await createTransactionsHarness('tx_routes');
});

afterAll(async () => {
  await h?.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function transfer(token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return request(h.app)
    .post('/api/transaction/transfer')
    .set({ ...bearer(token), ...headers })
    .send({ from: 'savings', accountType: 'savings', bankName: 'Other Bank', routingNumber: '021000021', to: 'Someone', description: '', paymentPin: TEST_PIN, ...body });
}

async function balances(userId: string): Promise<{ savings: number; checking: number }> {
  const { rows } = await h.fx.pool.query<{ savings_cents: string; checking_cents: string }>('SELECT savings_cents, checking_cents FROM rm.accounts WHERE user_id = $1', [userId]);
  const row = rows[0];
  return { savings: Number(row?.savings_cents ?? 0), checking: Number(row?.checking_cents ?? 0) };
}

async function history(token: string, query = ''): Promise<Record<string, unknown>[]> {
  const res = await request(h.app).get(`/api/transaction/complete${query}`).set(bearer(token)).expect(200);
  return res.body.data as Record<string, unknown>[];
}

const TRANSACTION_KEYS = ['_id', 'account', 'amount', 'balanceAfter', 'date', 'description', 'status', 'transactionType', 'transferId'];

describe('authentication and roles', () => {
  it('401 without a token on every route, 403 for a customer on the admin routes', async () => {
    for (const [method, path] of [
      ['get', '/api/transaction'],
      ['get', '/api/transaction/complete'],
      ['post', '/api/transaction/transfer'],
      ['get', '/api/transaction/admin'],
    ] as const) {
      const res = method === 'post' ? await request(h.app).post(path).send({}) : await request(h.app).get(path);
      expect(res.status, path).toBe(401);
    }
    const customer = await h.customer();
    const other = await h.customer();
    await request(h.app).get('/api/transaction/admin').set(bearer(customer.token)).expect(403);
    await request(h.app).get(`/api/transaction/admin/${other.userId}`).set(bearer(customer.token)).expect(403);
    await request(h.app).post(`/api/transaction/admin/${other.userId}`).set(bearer(customer.token)).send({}).expect(403);
    await request(h.app).delete(`/api/transaction/admin/${other.userId}`).set(bearer(customer.token)).expect(403);
  });
});

describe('POST /transaction/transfer', () => {
  it('internal: 201 Transfer Successful, the payee credited by the transfer process before the answer', async () => {
    const payer = await h.customer({ savingsCents: 100_00 });
    const payee = await h.customer();
    const res = await transfer(payer.token, { amount: 12.5, accountNumber: payee.accountNumber, bankName: 'Whatever Bank', description: 'Rent' }).expect(201);
    expect(res.body.message).toBe('Transfer Successful');
    expect(Object.keys(res.body.data).sort()).toEqual(TRANSACTION_KEYS);
    expect(res.body.data).toMatchObject({ amount: 12.5, transactionType: 'debit', account: 'savings', status: 'completed', balanceAfter: 87.5, description: 'Rent' });
    expect(res.get('X-Event-Position')).toMatch(/^\d+$/);
    // Read right after, without any consistency header: the recipient sees the money.
    const payeeList = await request(h.app).get('/api/transaction').set(bearer(payee.token)).expect(200);
    expect(payeeList.body.data[0]).toMatchObject({ amount: 12.5, transactionType: 'credit', status: 'completed', balanceAfter: 12.5, transferId: res.body.data.transferId });
    // Inside the bank: no `external` mark on either side (the web app words it by its status).
    expect(payeeList.body.data[0]).not.toHaveProperty('external');
    expect((await history(payer.token)).find((t) => t._id === res.body.data._id)).not.toHaveProperty('external');
    expect(await balances(payee.userId)).toEqual({ savings: 12_50, checking: 0 });
  });

  it('between one’s own savings and checking', async () => {
    const payer = await h.customer({ savingsCents: 50_00 });
    await transfer(payer.token, { amount: 20, accountNumber: payer.accountNumber, accountType: 'checking' }).expect(201);
    expect(await balances(payer.userId)).toEqual({ savings: 30_00, checking: 20_00 });
  });

  it('external: pending at once, completed when its ACH file settles', async () => {
    const payer = await h.customer({ savingsCents: 100_00 });
    const res = await transfer(payer.token, { amount: 30, accountNumber: '5550001111' }).expect(201);
    expect(res.body.data).toMatchObject({ status: 'pending', amount: 30, balanceAfter: 70, description: 'Transfer to Someone' });
    const ach = achDriver(h.worker!.achCycle);
    await ach.settleFile(await ach.buildFile([res.body.data.transferId as string]));
    await waitUntil(async () => (await history(payer.token)).find((t) => t._id === res.body.data._id)?.status === 'completed', { what: 'settlement' });
    expect(await balances(payer.userId)).toEqual({ savings: 70_00, checking: 0 });
    // Marked as sent to another bank, so the web app can word it Sent / Settled.
    expect((await history(payer.token)).find((t) => t._id === res.body.data._id)).toMatchObject({ external: true });
  });

  it('external, returned by the receiving bank (R01): failed, and the payer refunded with the reason', async () => {
    const payer = await h.customer({ savingsCents: 100_00 });
    const res = await transfer(payer.token, { amount: 30, accountNumber: '0000000000' }).expect(201);
    expect(res.body.data.status).toBe('pending');
    const ach = achDriver(h.worker!.achCycle);
    expect(await ach.returnEntries(await ach.buildFile([res.body.data.transferId as string]), ['0000000000'])).toMatchObject({ applied: 1 });
    await waitUntil(async () => (await history(payer.token)).find((t) => t._id === res.body.data._id)?.status === 'failed', { what: 'failure' });
    await waitUntil(async () => (await balances(payer.userId)).savings === 100_00, { what: 'refund' });
    const list = await history(payer.token);
    expect(list.find((t) => t.transferId === res.body.data.transferId && t.transactionType === 'credit')).toMatchObject({ amount: 30, status: 'completed', description: 'Returned: R01 Insufficient funds' });
  });

  it('400 for present but malformed values', async () => {
    const payer = await h.customer({ savingsCents: 100_00 });
    for (const body of [
      { amount: 'abc' },
      { amount: 0.5 },
      { amount: 1.234 },
      { amount: 2_000_000_000 },
      { from: 'current' },
      { accountType: 'brokerage' },
      { paymentPin: '12a456' },
      { paymentPin: '12345' },
    ]) {
      const res = await transfer(payer.token, { amount: 1, accountNumber: '5550001111', ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect(await balances(payer.userId)).toEqual({ savings: 100_00, checking: 0 });
  });

  it('a blocked customer is told so however many wrong pins: the pin is not compared, so none counts and none ends in 429', async () => {
    const blocked = await h.customer({ savingsCents: 10_00, blocked: true });
    const payee = await h.customer();
    // Past the wrong pins' limit (5): every answer is still the block.
    for (let i = 0; i < 7; i += 1) {
      const res = await transfer(blocked.token, { amount: 1, accountNumber: payee.accountNumber, paymentPin: '000000' });
      expect([res.status, res.body.message]).toEqual([422, 'Your account had been suspended, please contact bank support']);
    }
    expect(await h.deps.redis.get(`${h.deps.config.REDIS_PREFIX}rl:pin:${blocked.userId}`)).toBeNull();
  });

  it('422 refusals in API.md’s order, with the spec’s texts', async () => {
    const payer = await h.customer({ savingsCents: 10_00 });
    const blocked = await h.customer({ savingsCents: 10_00, blocked: true });
    const noPin = await h.customer({ savingsCents: 10_00, pinHash: '' });
    const payee = await h.customer();
    const cases: [string, Record<string, unknown>, string][] = [
      [blocked.token, { amount: 1, accountNumber: payee.accountNumber, paymentPin: '000000', amountMissing: 1 }, 'Your account had been suspended, please contact bank support'],
      [noPin.token, { amount: 1, accountNumber: payee.accountNumber }, 'Please set your payment pin'],
      // The web app sends the pin field empty for a customer who has none.
      [noPin.token, { amount: 1, accountNumber: payee.accountNumber, paymentPin: '' }, 'Please set your payment pin'],
      [payer.token, { accountNumber: payee.accountNumber, paymentPin: '000000' }, 'Incorrect payment pin'],
      [payer.token, { accountNumber: payee.accountNumber, amount: '' }, 'Please fill all fields'],
      [payer.token, { amount: 1, accountNumber: '' }, 'Please fill all fields'],
      [payer.token, { amount: 1, accountNumber: payee.accountNumber, accountType: '' }, 'Please fill all fields'],
      [payer.token, { amount: 1, accountNumber: payer.accountNumber }, 'You cannot transfer to the same account'],
      [payer.token, { amount: 10.01, accountNumber: '4000123456', routingNumber: '123456789' }, 'Invalid routing number'],
      // To another bank, the details must fit an ACH entry: a routing number (a blank one names no bank) and an
      // account number of 17 printable ASCII characters at most.
      [payer.token, { amount: 10.01, accountNumber: '4000123456', routingNumber: '' }, 'Invalid routing number'],
      [payer.token, { amount: 10.01, accountNumber: '4000123456', routingNumber: undefined }, 'Invalid routing number'],
      [payer.token, { amount: 10.01, accountNumber: '1234567890123456789' }, 'Invalid account number'],
      [payer.token, { amount: 10.01, accountNumber: '12345é' }, 'Invalid account number'],
      [payer.token, { amount: 10.01, accountNumber: payee.accountNumber }, 'You do not have enough balance'],
      [payer.token, { amount: 5, from: 'checking', accountNumber: payee.accountNumber }, 'You do not have enough balance'],
    ];
    for (const [token, body, message] of cases) {
      const res = await transfer(token, body);
      expect({ status: res.status, message: res.body.message }, JSON.stringify(body)).toEqual({ status: 422, message });
    }
    expect(await balances(payer.userId)).toEqual({ savings: 10_00, checking: 0 });
  });

  it('5 wrong pins in the window: further attempts get 429 with Retry-After', async () => {
    const payer = await h.customer({ savingsCents: 10_00 });
    const payee = await h.customer();
    for (let i = 0; i < 5; i += 1) {
      const res = await transfer(payer.token, { amount: 1, accountNumber: payee.accountNumber, paymentPin: '999999' });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Incorrect payment pin');
    }
    const blocked = await transfer(payer.token, { amount: 1, accountNumber: payee.accountNumber });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.get('Retry-After'))).toBeGreaterThan(0);
    expect(await balances(payer.userId)).toEqual({ savings: 10_00, checking: 0 });
  });

  it('the same Idempotency-Key twice moves the money once', async () => {
    const payer = await h.customer({ savingsCents: 100_00 });
    const payee = await h.customer();
    const body = { amount: 40, accountNumber: payee.accountNumber };
    const first = await transfer(payer.token, body, { 'Idempotency-Key': 'pay-rent-1' }).expect(201);
    const second = await transfer(payer.token, body, { 'Idempotency-Key': 'pay-rent-1' }).expect(201);
    expect(second.body.data._id).toBe(first.body.data._id);
    await h.settle();
    expect(await balances(payer.userId)).toEqual({ savings: 60_00, checking: 0 });
    expect(await balances(payee.userId)).toEqual({ savings: 40_00, checking: 0 });
    // A different key is another transfer.
    await transfer(payer.token, body, { 'Idempotency-Key': 'pay-rent-2' }).expect(201);
    expect(await balances(payer.userId)).toEqual({ savings: 20_00, checking: 0 });
  });

  it('20 parallel transfers of $10 from $100: exactly 10 succeed, balance 0, recipient +$100', async () => {
    const payer = await h.customer({ savingsCents: 100_00 });
    const payee = await h.customer();
    const answers = await Promise.all(Array.from({ length: 20 }, () => transfer(payer.token, { amount: 10, accountNumber: payee.accountNumber })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 422)).toHaveLength(10);
    for (const refused of answers.filter((a) => a.status === 422)) expect(refused.body.message).toBe('You do not have enough balance');
    await waitUntil(async () => (await balances(payee.userId)).savings === 100_00, { what: 'the credits' });
    await h.settle();
    expect(await balances(payer.userId)).toEqual({ savings: 0, checking: 0 });
    expect(await balances(payee.userId)).toEqual({ savings: 100_00, checking: 0 });
  });
});

describe('one account, many requests at once', () => {
  it('8 concurrent staff postings to one account all succeed (no 409) and the balance is exact', async () => {
    const admin = await h.admin();
    const customer = await h.customer();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        request(h.app)
          .post(`/api/transaction/admin/${customer.userId}`)
          .set(bearer(admin.token))
          .send({ amount: 10 + i, transactionType: 'credit', date: '2025-05-01', description: `Posting ${i}` }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    expect(await balances(customer.userId)).toEqual({ savings: (8 * 10 + 28) * 100, checking: 0 });
  });

  it('32 payers paying one merchant at once: every transfer succeeds, money conserved', async () => {
    const merchant = await h.customer();
    const payers = await Promise.all(Array.from({ length: 32 }, () => h.customer({ savingsCents: 20_00 })));
    const answers = await Promise.all(payers.map((payer) => transfer(payer.token, { amount: 15, accountNumber: merchant.accountNumber })));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    expect(answers.map((a) => a.body.data.status)).toEqual(answers.map(() => 'completed'));
    expect(await balances(merchant.userId)).toEqual({ savings: 32 * 15_00, checking: 0 });
    for (const payer of payers) expect(await balances(payer.userId)).toEqual({ savings: 5_00, checking: 0 });
  });
});

describe('GET /transaction and /transaction/complete', () => {
  it('the 5 most recent; the full history newest first with limit and before (id or date)', async () => {
    const customer = await h.customer();
    const admin = await h.admin();
    for (let day = 1; day <= 7; day += 1) {
      await request(h.app)
        .post(`/api/transaction/admin/${customer.userId}`)
        .set(bearer(admin.token))
        .send({ amount: day, transactionType: 'credit', date: `2025-01-0${day}`, description: `Deposit ${day}` })
        .expect(201);
    }
    const recent = await request(h.app).get('/api/transaction').set(bearer(customer.token)).expect(200);
    expect(recent.body.data.map((t: { amount: number }) => t.amount)).toEqual([7, 6, 5, 4, 3]);
    const all = await history(customer.token);
    expect(all.map((t) => t.amount)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    const first = await history(customer.token, '?limit=3');
    expect(first.map((t) => t.amount)).toEqual([7, 6, 5]);
    const next = await history(customer.token, `?limit=3&before=${String(first[2]?._id)}`);
    expect(next.map((t) => t.amount)).toEqual([4, 3, 2]);
    const byDate = await history(customer.token, '?before=2025-01-03');
    expect(byDate.map((t) => t.amount)).toEqual([2, 1]);
    await request(h.app).get('/api/transaction/complete?limit=0').set(bearer(customer.token)).expect(400);
    await request(h.app).get('/api/transaction/complete?before=yesterday').set(bearer(customer.token)).expect(400);
    // Another customer's transaction is no cursor for this one.
    const other = await h.customer();
    await request(h.app).get(`/api/transaction/complete?before=${String(first[0]?._id)}`).set(bearer(other.token)).expect(400);
  });
});

describe('admin routes', () => {
  it('lists everyone’s and one user’s transactions', async () => {
    const admin = await h.admin();
    const customer = await h.customer({ savingsCents: 5_00 });
    const all = await request(h.app).get('/api/transaction/admin').set(bearer(admin.token)).expect(200);
    expect(all.body.data.length).toBeGreaterThan(0);
    const mine = await request(h.app).get(`/api/transaction/admin/${customer.userId}`).set(bearer(admin.token)).expect(200);
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0]).toMatchObject({ amount: 5, transactionType: 'credit', account: 'savings', status: 'completed', balanceAfter: 5 });
    await request(h.app).get('/api/transaction/admin/00000000-0000-4000-8000-000000000000').set(bearer(admin.token)).expect(404);
    await request(h.app).get('/api/transaction/admin/not-a-uuid').set(bearer(admin.token)).expect(404);
  });

  it('posts staff transactions (default savings; no balance below zero; all fields required)', async () => {
    const admin = await h.admin();
    const customer = await h.customer();
    const credit = await request(h.app)
      .post(`/api/transaction/admin/${customer.userId}`)
      .set(bearer(admin.token))
      .send({ amount: 100, transactionType: 'credit', date: '2025-03-01', description: 'Cash deposit' })
      .expect(201);
    expect(credit.body).toMatchObject({ message: 'Transaction added successfully', data: { amount: 100, account: 'savings', status: 'completed', balanceAfter: 100 } });
    await request(h.app)
      .post(`/api/transaction/admin/${customer.userId}`)
      .set(bearer(admin.token))
      .send({ amount: 25, transactionType: 'credit', date: '2025-03-02', description: 'To checking', account: 'checking' })
      .expect(201);
    const tooMuch = await request(h.app)
      .post(`/api/transaction/admin/${customer.userId}`)
      .set(bearer(admin.token))
      .send({ amount: 100.01, transactionType: 'debit', date: '2025-03-03', description: 'Withdrawal' });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.message).toBe('You do not have enough balance');
    const missing = await request(h.app).post(`/api/transaction/admin/${customer.userId}`).set(bearer(admin.token)).send({ amount: 5, transactionType: 'debit' });
    expect({ status: missing.status, message: missing.body.message }).toEqual({ status: 422, message: 'All fields are required' });
    await request(h.app).post(`/api/transaction/admin/${customer.userId}`).set(bearer(admin.token)).send({ amount: 'x', transactionType: 'debit', date: '2025-03-03', description: 'x' }).expect(400);
    await request(h.app).post(`/api/transaction/admin/${customer.userId}`).set(bearer(admin.token)).send({ amount: 1, transactionType: 'gift', date: '2025-03-03', description: 'x' }).expect(400);
    expect(await balances(customer.userId)).toEqual({ savings: 100_00, checking: 25_00 });
  });

  it('reverses a transaction: the balance restored, the original kept as reversed; twice is 422', async () => {
    const admin = await h.admin();
    const customer = await h.customer();
    const posted = await request(h.app)
      .post(`/api/transaction/admin/${customer.userId}`)
      .set(bearer(admin.token))
      .send({ amount: 80, transactionType: 'credit', date: '2025-04-01', description: 'Deposit' })
      .expect(201);
    const id = String(posted.body.data._id);
    const reversed = await request(h.app).delete(`/api/transaction/admin/${id}`).set(bearer(admin.token)).expect(200);
    expect(reversed.body.data).toMatchObject({ amount: 80, transactionType: 'debit', status: 'completed', balanceAfter: 0 });
    expect(await balances(customer.userId)).toEqual({ savings: 0, checking: 0 });
    const list = await history(customer.token);
    expect(list.find((t) => t._id === id)?.status).toBe('reversed');
    const again = await request(h.app).delete(`/api/transaction/admin/${id}`).set(bearer(admin.token));
    expect({ status: again.status, message: again.body.message }).toEqual({ status: 422, message: 'Transaction already reversed' });
    await request(h.app).delete('/api/transaction/admin/00000000-0000-4000-8000-000000000000').set(bearer(admin.token)).expect(404);
  });

  it('refuses to reverse a pending transfer debit (an external one, waiting for its ACH file)', async () => {
    const admin = await h.admin();
    const payer = await h.customer({ savingsCents: 10_00 });
    const res = await transfer(payer.token, { amount: 5, accountNumber: '5550002222' }).expect(201);
    expect(res.body.data.status).toBe('pending');
    const refused = await request(h.app).delete(`/api/transaction/admin/${String(res.body.data._id)}`).set(bearer(admin.token));
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 422, message: 'Only a completed transaction can be reversed' });
  });
});

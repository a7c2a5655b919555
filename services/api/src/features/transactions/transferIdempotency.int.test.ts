import { startPrivateRedis, waitUntil, type PrivateRedis } from '@bank/testkit';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIFFERENT_REQUEST_MESSAGE, idempotencyRedisKey } from '../../http/idempotency';
import { redisCommandsDuring } from '../../testing/redisMonitor';
import { createTransactionsHarness, TEST_PIN, type TransactionsHarness } from './testing/transactionsHarness';

// The API's Redis is a server of this file's own, so MONITOR sees the route's commands and nothing else's.
let redisServer: PrivateRedis;
let h: TransactionsHarness;

beforeAll(async () => {
  redisServer = await startPrivateRedis();
  h = await createTransactionsHarness('transfer_key', { apiRedisUrl: redisServer.url });
});

afterAll(async () => {
  await h?.close();
  await redisServer?.destroy();
});

type Harness = TransactionsHarness;

function transfer(harness: Harness, token: string, key: string, body: Record<string, unknown>) {
  return request(harness.app)
    .post('/api/transaction/transfer')
    .set({ Authorization: `Bearer ${token}`, 'Idempotency-Key': key })
    .send({ from: 'savings', accountType: 'savings', bankName: 'Other Bank', routingNumber: '021000021', to: 'Someone', description: 'Rent', paymentPin: TEST_PIN, ...body });
}

async function balances(harness: Harness, userId: string): Promise<{ savings: number; checking: number }> {
  await harness.settle();
  const { rows } = await harness.fx.pool.query<{ savings_cents: string; checking_cents: string }>('SELECT savings_cents, checking_cents FROM rm.accounts WHERE user_id = $1', [userId]);
  return { savings: Number(rows[0]?.savings_cents ?? 0), checking: Number(rows[0]?.checking_cents ?? 0) };
}

function recordKey(harness: Harness, userId: string, key: string): string {
  return idempotencyRedisKey(harness.deps.config.REDIS_PREFIX, `user:${userId}`, key);
}

/** The commands the API's Redis runs on the payer's keys (pin counters, their Idempotency-Key's record) during `work`. */
function payerCommandsDuring<T>(harness: Harness, userId: string, key: string, work: () => Promise<T>): Promise<{ result: T; commands: string[][] }> {
  const record = recordKey(harness, userId, key);
  return redisCommandsDuring(harness.deps.redis, (args) => args.some((arg) => arg.endsWith(userId) || arg === record), work);
}

describe("a transfer's Idempotency-Key, kept by the log", () => {
  it('costs one Redis command on the happy path (the pin limit and the key read together) and records nothing', async () => {
    const payer = await h.customer({ savingsCents: 100_00 });
    const payee = await h.customer();
    const { result, commands } = await payerCommandsDuring(h, payer.userId, 'one-command', () => transfer(h, payer.token, 'one-command', { amount: 25, accountNumber: payee.accountNumber }));
    expect(result.status).toBe(201);
    expect(result.body.data.status).toBe('completed');
    expect(commands.map((args) => args[0]!.toLowerCase())).toEqual(['mget']);
    expect(commands[0]).toContain(recordKey(h, payer.userId, 'one-command'));
    expect(await h.deps.redis.exists(recordKey(h, payer.userId, 'one-command'))).toBe(0);
  });

  it('sent again: the money moves once, and the answer is the first one (status and body), marked as replayed', async () => {
    const payer = await h.customer({ savingsCents: 100_00 });
    const payee = await h.customer();
    const body = { amount: 40, accountNumber: payee.accountNumber };
    const first = await transfer(h, payer.token, 'rent-1', body);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const { result: second, commands } = await payerCommandsDuring(h, payer.userId, 'rent-1', () => transfer(h, payer.token, 'rent-1', body));
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.get('X-Event-Position')).toMatch(/^\d+$/);
    expect(commands.map((args) => args[0]!.toLowerCase())).toEqual(['mget']);
    expect(await balances(h, payer.userId)).toEqual({ savings: 60_00, checking: 0 });
    expect(await balances(h, payee.userId)).toEqual({ savings: 40_00, checking: 0 });
    // The key is the payer's: another customer's same key is their own transfer.
    const other = await h.customer({ savingsCents: 10_00 });
    const theirs = await transfer(h, other.token, 'rent-1', { amount: 5, accountNumber: payee.accountNumber });
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await balances(h, payee.userId)).toEqual({ savings: 45_00, checking: 0 });
  });

  it('sent five times at once: one transfer, every answer the first one', async () => {
    const payer = await h.customer({ savingsCents: 100_00 });
    const payee = await h.customer();
    const answers = await Promise.all(Array.from({ length: 5 }, () => transfer(h, payer.token, 'racing', { amount: 30, accountNumber: payee.accountNumber })));
    for (const answer of answers) expect(answer.status).toBe(201);
    const firsts = answers.filter((answer) => answer.headers['idempotent-replayed'] === undefined);
    expect(firsts).toHaveLength(1);
    for (const answer of answers) expect(answer.body).toEqual(firsts[0]!.body);
    expect(firsts[0]!.body.data.status).toBe('completed');
    expect(await balances(h, payer.userId)).toEqual({ savings: 70_00, checking: 0 });
    expect(await balances(h, payee.userId)).toEqual({ savings: 30_00, checking: 0 });
  });

  it('with a different request is 422 and moves nothing; the same request with other spacing or another pin is the same', async () => {
    const payer = await h.customer({ savingsCents: 100_00 });
    const payee = await h.customer();
    const body = { amount: 10, accountNumber: payee.accountNumber };
    const first = await transfer(h, payer.token, 'changed', body);
    expect(first.status).toBe(201);
    for (const change of [{ amount: 11 }, { from: 'checking' }, { accountType: 'checking' }, { description: 'Other' }, { bankName: 'Third Bank' }, { accountNumber: payer.accountNumber }]) {
      const res = await transfer(h, payer.token, 'changed', { ...body, ...change });
      expect(res.status, JSON.stringify(change)).toBe(422);
      expect(res.body).toEqual({ message: DIFFERENT_REQUEST_MESSAGE });
    }
    const same = await transfer(h, payer.token, 'changed', { ...body, accountNumber: ` ${payee.accountNumber} `, description: ' Rent ', paymentPin: '000000' });
    expect(same.status).toBe(201);
    expect(same.body).toEqual(first.body);
    expect(await balances(h, payer.userId)).toEqual({ savings: 90_00, checking: 0 });
    expect(await h.deps.redis.exists(recordKey(h, payer.userId, 'changed'))).toBe(0);
  });

  it('remembers a refusal: the same key answers the same 422 after the money has arrived, and moves nothing', async () => {
    const payer = await h.customer({ savingsCents: 10_00 });
    const payee = await h.customer();
    const funder = await h.customer({ savingsCents: 100_00 });
    const body = { amount: 50, accountNumber: payee.accountNumber };
    const first = await transfer(h, payer.token, 'too-much', body);
    expect(first.status).toBe(422);
    expect(first.body.message).toBe('You do not have enough balance');
    await transfer(h, funder.token, 'fund-payer', { amount: 100, accountNumber: payer.accountNumber }).expect(201);
    expect(await balances(h, payer.userId)).toEqual({ savings: 110_00, checking: 0 });
    const again = await transfer(h, payer.token, 'too-much', body);
    expect(again.status).toBe(422);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // A different request under that key is still 422, and does not replace the record.
    expect((await transfer(h, payer.token, 'too-much', { ...body, amount: 60 })).body).toEqual({ message: DIFFERENT_REQUEST_MESSAGE });
    expect((await transfer(h, payer.token, 'too-much', body)).body).toEqual(first.body);
    expect(await balances(h, payer.userId)).toEqual({ savings: 110_00, checking: 0 });
    expect(await balances(h, payee.userId)).toEqual({ savings: 0, checking: 0 });
  });

  it("finds a claim the general middleware left (a process of the previous version): the log decides, the money moves once", async () => {
    const payer = await h.customer({ savingsCents: 100_00 });
    const payee = await h.customer();
    await h.deps.redis.set(recordKey(h, payer.userId, 'upgrade'), JSON.stringify({ state: 'pending', fingerprint: 'x', keyId: 'old' }), 'PX', 10_000);
    const first = await transfer(h, payer.token, 'upgrade', { amount: 5, accountNumber: payee.accountNumber });
    expect(first.status).toBe(201);
    const again = await transfer(h, payer.token, 'upgrade', { amount: 5, accountNumber: payee.accountNumber });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await balances(h, payer.userId)).toEqual({ savings: 95_00, checking: 0 });
  });

  it('to another bank: answered pending at once; a repeat answers it again from the log, nothing recorded', async () => {
    const payer = await h.customer({ savingsCents: 100_00 });
    const first = await transfer(h, payer.token, 'ach-1', { amount: 20, accountNumber: '987654321', routingNumber: '021000021' });
    expect(first.status).toBe(201);
    expect(first.body.data.status).toBe('pending');
    const again = await transfer(h, payer.token, 'ach-1', { amount: 20, accountNumber: '987654321', routingNumber: '021000021' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await h.deps.redis.exists(recordKey(h, payer.userId, 'ach-1'))).toBe(0);
    expect(await balances(h, payer.userId)).toEqual({ savings: 80_00, checking: 0 });
  });
});

describe('an internal transfer answered pending (its credit slower than the request waits)', () => {
  let slow: TransactionsHarness;

  beforeAll(async () => {
    slow = await createTransactionsHarness('transfer_key_slow', { apiRedisUrl: redisServer.url, env: { TRANSFER_CREDIT_WAIT_MS: '1' } });
  });

  afterAll(async () => {
    await slow?.close();
  });

  it('is remembered: a repeat answers pending as the first did, though the transfer has completed since', async () => {
    const payer = await slow.customer({ savingsCents: 100_00 });
    const payee = await slow.customer();
    const body = { amount: 15, accountNumber: payee.accountNumber };
    const first = await transfer(slow, payer.token, 'slow-1', body);
    expect(first.status).toBe(201);
    expect(first.body.data.status).toBe('pending');
    expect(await slow.deps.redis.exists(recordKey(slow, payer.userId, 'slow-1'))).toBe(1);
    await waitUntil(async () => (await slow.fx.transfer(first.body.data.transferId as string)).phase === 'credited', { timeoutMs: 10_000 });
    const again = await transfer(slow, payer.token, 'slow-1', body);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // Had Redis lost the record, the log still refuses to move the money twice, and tells the transfer as it stands.
    await slow.deps.redis.del(recordKey(slow, payer.userId, 'slow-1'));
    const fromLog = await transfer(slow, payer.token, 'slow-1', body);
    expect(fromLog.status).toBe(201);
    expect(fromLog.body.data).toEqual({ ...first.body.data, status: 'completed' });
    expect(await balances(slow, payer.userId)).toEqual({ savings: 85_00, checking: 0 });
    expect(await balances(slow, payee.userId)).toEqual({ savings: 15_00, checking: 0 });
  });
});

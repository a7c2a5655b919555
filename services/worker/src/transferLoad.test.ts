import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDomainError, transferInput } from '@bank/domain';
import { createLogger } from '@bank/platform';
import { createProjectionReader, startProjector, verifyReadModels, type ProjectionReader, type ProjectorHandle } from '@bank/projector';
import { Redis } from 'ioredis';
import { createTransferQueues, ensureTransferJob, type TransferQueues } from './queues';
import { startWorker, type RunningWorker } from './startWorker';
import { spawnTs, type Child } from './testing/childProcess';
import { createTransferFixture, type TestCustomer, type TransferFixture } from './testing/transferTestKit';
import { waitUntil } from './testing/waitUntil';
import { requestTransfer } from './transfers/requestTransfer';
import { inspectTransfer } from './transfers/transferProcess';
import { defaultWorkerSettings } from './workerConfig';

/**
 * 200 transfers among 20 accounts, all requested at once, processed by two workers (this process and another):
 * money conserved, no balance below zero, each leg once, and the read models equal to the replay.
 */
const logger = createLogger('test', 'silent');
const PIN = '123456';
let fx: TransferFixture;
let projector: ProjectorHandle;
let reader: ProjectionReader;
let redis: Redis;
let queues: TransferQueues;
let worker: RunningWorker;
let other: Child;

/** mulberry32: a small seeded PRNG, so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

beforeAll(async () => {
  fx = await createTransferFixture('transfer_load');
  projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
  reader = createProjectionReader(fx.pool);
  redis = new Redis(fx.redis.url, { maxRetriesPerRequest: null });
  queues = createTransferQueues({ connection: redis, prefix: fx.redis.prefix });
  other = spawnTs('services/worker/src/main.ts', {
    DATABASE_URL: fx.db.url,
    REDIS_URL: fx.redis.url,
    REDIS_PREFIX: fx.redis.prefix,
    SETTLEMENT_DELAY_MS: '200',
    TRANSFER_SWEEP_EVERY_MS: '2000',
  });
  worker = await startWorker({
    config: {
      ...defaultWorkerSettings({ WORKER_BACKOFF_MS: 100, TRANSFER_SWEEP_EVERY_MS: 2000 }),
      REDIS_URL: fx.redis.url,
      REDIS_PREFIX: fx.redis.prefix,
      SETTLEMENT_DELAY_MS: 200,
      AUDIT_CHECK_EVERY_MS: 3_600_000,
    },
    store: fx.store,
    pool: fx.pool,
    logger,
    verifyReadModels: () => verifyReadModels({ pool: fx.pool, store: fx.store }),
  });
});

afterAll(async () => {
  await other?.kill();
  await worker?.stop();
  await queues?.close();
  redis?.disconnect();
  await reader?.close();
  await projector?.stop();
  await fx?.close();
});

describe('200 transfers across 20 accounts in parallel', () => {
  it('conserve money, never go below zero, apply each leg once, and leave the read models equal to the replay', async () => {
    const random = prng(20250601);
    const customers: TestCustomer[] = [];
    for (let i = 0; i < 20; i += 1) customers.push(await fx.openCustomer({ savingsCents: 500_00, checkingCents: 100_00, pinHash: `hash:${PIN}` }));
    const initialTotal = 20 * 600_00;
    const pick = () => customers[Math.floor(random() * customers.length)]!;

    const requests = Array.from({ length: 200 }, () => {
      const payer = pick();
      const roll = random();
      const accountNumber = roll < 0.08 ? '0000000000' : roll < 0.16 ? `3${String(Math.floor(random() * 1e9)).padStart(9, '0')}` : pick().accountNumber;
      const from = random() < 0.7 ? 'savings' : 'checking';
      const accountType = accountNumber === payer.accountNumber ? (from === 'savings' ? 'checking' : 'savings') : random() < 0.5 ? 'savings' : 'checking';
      const amount = Math.round((1 + random() * 149) * 100) / 100;
      return { payer, input: transferInput.parse({ from, amount, accountNumber, accountType, to: 'Someone', paymentPin: PIN }) };
    });

    const outcomes = await Promise.all(
      requests.map(async ({ payer, input }) => {
        try {
          const { transferId, request } = await requestTransfer(
            {
              store: fx.store,
              pool: fx.pool,
              logger,
              comparePin: async (pin, hash) => hash === `hash:${pin}`,
              enqueue: (step, id) => ensureTransferJob(queues, step, id),
            },
            { userId: payer.userId, input },
          );
          return { ok: true as const, transferId, request };
        } catch (error) {
          if (isDomainError(error)) return { ok: false as const, message: error.message };
          throw error;
        }
      }),
    );
    const accepted = outcomes.filter((o) => o.ok);
    for (const refused of outcomes.filter((o) => !o.ok)) expect(refused.message).toBe('You do not have enough balance');
    expect(accepted.length).toBeGreaterThan(100);

    for (const { transferId } of accepted) {
      await waitUntil(async () => (await inspectTransfer(fx.store, transferId)).next === 'done', { timeoutMs: 60_000, what: `transfer ${transferId}` });
    }

    // Money: what left the bank is exactly the settled external transfers.
    let settledOut = 0;
    let refunded = 0;
    for (const { transferId, request } of accepted) {
      const events = await fx.transferEvents(transferId);
      if (events.includes('TransferSettled')) settledOut += request.amountCents;
      if (events.includes('TransferRefunded')) refunded += 1;
      expect(['TransferCredited', 'TransferSettled', 'TransferRefunded']).toContain(events.at(-1));
    }
    expect(refunded).toBeGreaterThan(0);
    let total = 0;
    const legs = new Map<string, number>();
    for (const customer of customers) {
      const account = await fx.account(customer.userId);
      if (account.status === 'unopened') throw new Error('unopened');
      expect(account.balances.savings).toBeGreaterThanOrEqual(0);
      expect(account.balances.checking).toBeGreaterThanOrEqual(0);
      total += account.balances.savings + account.balances.checking;
      for (const t of Object.values(account.transactions)) {
        expect(t.balanceAfterCents).toBeGreaterThanOrEqual(0);
        if (t.transferId) legs.set(`${t.transferId}:${t.kind}`, (legs.get(`${t.transferId}:${t.kind}`) ?? 0) + 1);
      }
    }
    expect(total).toBe(initialTotal - settledOut);
    // Each leg exactly once: one debit per transfer, one credit per internal one, one refund per refunded one.
    for (const { transferId, request } of accepted) {
      expect(legs.get(`${transferId}:transfer_debit`)).toBe(1);
      if (request.internal) expect(legs.get(`${transferId}:transfer_credit`) ?? legs.get(`${transferId}:refund`)).toBe(1);
    }
    expect([...legs.values()].every((n) => n === 1)).toBe(true);

    // The read models equal the replay of the event log; so does the periodic audit job.
    const last = fx.lastPosition();
    expect(last && (await reader.waitForPosition(last, 20_000))).toBe(true);
    const verified = await verifyReadModels({ pool: fx.pool, store: fx.store });
    expect(verified.mismatches).toEqual([]);
    expect(verified.ok).toBe(true);
    const audit = await worker.auditCheck();
    expect(audit).toMatchObject({ ok: true, mismatches: 0 });
    expect((await worker.metrics.registry.getSingleMetricAsString('bank_read_model_audit_ok')).trim().split('\n').at(-1)).toBe('bank_read_model_audit_ok 1');
  });
});

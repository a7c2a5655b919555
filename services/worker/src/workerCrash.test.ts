import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferInput } from '@bank/domain';
import { createLogger } from '@bank/platform';
import { migrateReadModels } from '@bank/projector';
import { createTransferQueues, ensureTransferJob, type TransferQueues } from './queues';
import { spawnTs, type Child } from './testing/childProcess';
import { createTransferFixture, type TestCustomer, type TransferFixture } from './testing/transferTestKit';
import { waitUntil } from './testing/waitUntil';
import { requestTransfer } from './transfers/requestTransfer';
import { inspectTransfer } from './transfers/transferProcess';

/**
 * The worker as a real process (`node --import tsx services/worker/src/main.ts`), stopped with SIGKILL at chosen
 * points of the transfer process and started again: every transfer ends completed or refunded, each leg applied
 * exactly once, the total money conserved.
 */
const logger = createLogger('test', 'silent');
const PIN = '123456';
let fx: TransferFixture;
let queues: TransferQueues;
let redis: Redis;
const children: Child[] = [];

function startWorkerProcess(fault?: string): Child {
  const child = spawnTs('services/worker/src/main.ts', {
    DATABASE_URL: fx.db.url,
    REDIS_URL: fx.redis.url,
    REDIS_PREFIX: fx.redis.prefix,
    SETTLEMENT_DELAY_MS: '200',
    WORKER_LOCK_DURATION_MS: '2000',
    WORKER_STALLED_INTERVAL_MS: '1000',
    WORKER_BACKOFF_MS: '200',
    TRANSFER_SWEEP_EVERY_MS: '600000',
    ...(fault ? { WORKER_FAULT: fault } : {}),
  });
  children.push(child);
  return child;
}

async function transfer(payer: TestCustomer, accountNumber: string, amount: number): Promise<string> {
  const { transferId } = await requestTransfer(
    {
      store: fx.store,
      pool: fx.pool,
      logger,
      comparePin: async (pin, hash) => hash === `hash:${pin}`,
      enqueue: (step, id) => ensureTransferJob(queues, step, id),
    },
    {
      userId: payer.userId,
      input: transferInput.parse({ from: 'savings', amount, accountNumber, accountType: 'savings', to: 'Recipient', paymentPin: PIN }),
    },
  );
  return transferId;
}

beforeAll(async () => {
  fx = await createTransferFixture('worker_crash');
  await migrateReadModels(fx.pool);
  redis = new Redis(fx.redis.url, { maxRetriesPerRequest: null });
  queues = createTransferQueues({ connection: redis, prefix: fx.redis.prefix });
});

afterAll(async () => {
  await Promise.all(children.map((c) => c.kill()));
  await queues?.close();
  redis?.disconnect();
  await fx?.close();
});

describe('worker process killed with SIGKILL mid-transfer', () => {
  it('completes or refunds every transfer, each leg once, money conserved', async () => {
    const payer = await fx.openCustomer({ savingsCents: 1000_00, pinHash: `hash:${PIN}` });
    const payee = await fx.openCustomer({ pinHash: `hash:${PIN}` });
    const internal = await transfer(payer, payee.accountNumber, 100);
    const external = await transfer(payer, '9876543210', 200);
    const rejected = await transfer(payer, '0000000000', 300);
    expect(await fx.balances(payer.userId)).toEqual({ savings: 400_00, checking: 0 });

    // 1st run: dies before the payee's credit, and half-way through both settlements.
    let worker = startWorkerProcess('before-credit:hang,mid-settle:hang');
    await worker.waitFor('FAULT ', { times: 3 });
    expect(worker.output()).toContain('FAULT before-credit');
    await worker.kill();
    expect(await fx.balances(payee.userId)).toEqual({ savings: 0, checking: 0 });
    expect(await fx.transferEvents(rejected)).toContain('TransferFailed');
    expect(await fx.transferEvents(external)).not.toContain('TransferSettled');

    // 2nd run: the internal transfer now dies after the credit, the refund after crediting the payer back.
    worker = startWorkerProcess('after-credit:hang,after-refund-credit:hang');
    await worker.waitFor('FAULT after-credit', { timeoutMs: 30_000 });
    await worker.waitFor('FAULT after-refund-credit', { timeoutMs: 30_000 });
    await waitUntil(async () => (await inspectTransfer(fx.store, external)).next === 'done', { what: 'the external transfer to settle' });
    await worker.kill();
    expect(await fx.balances(payee.userId)).toEqual({ savings: 100_00, checking: 0 });

    // 3rd run, no faults: everything finishes.
    worker = startWorkerProcess();
    for (const id of [internal, external, rejected]) {
      await waitUntil(async () => (await inspectTransfer(fx.store, id)).next === 'done', { timeoutMs: 30_000, what: `transfer ${id} to finish` });
    }
    await worker.stop();

    expect(await fx.transferEvents(internal)).toEqual(['TransferRequested', 'TransferDebited', 'TransferCredited']);
    expect(await fx.transferEvents(external)).toEqual(['TransferRequested', 'TransferDebited', 'TransferSent', 'TransferSettled']);
    expect(await fx.transferEvents(rejected)).toEqual(['TransferRequested', 'TransferDebited', 'TransferSent', 'TransferFailed', 'TransferRefunded']);
    // Each leg exactly once: 1000 − 100 (internal) − 200 (external, settled) + 0 (rejected, refunded).
    expect(await fx.balances(payer.userId)).toEqual({ savings: 700_00, checking: 0 });
    expect(await fx.balances(payee.userId)).toEqual({ savings: 100_00, checking: 0 });
    const payerAccount = await fx.account(payer.userId);
    const payeeAccount = await fx.account(payee.userId);
    if (payerAccount.status === 'unopened' || payeeAccount.status === 'unopened') throw new Error('unopened');
    expect(Object.values(payeeAccount.transactions).filter((t) => t.transferId === internal)).toHaveLength(1);
    expect(Object.values(payerAccount.transactions).filter((t) => t.transferId === rejected).map((t) => t.kind).sort()).toEqual(['refund', 'transfer_debit']);
  });
});

import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { transferInput } from '@bank/domain';
import { createLogger } from '@bank/platform';
import { createProjectionReader, startProjector, type ProjectionReader, type ProjectorHandle } from '@bank/projector';
import { createTransferQueues, ensureTransferJob, transferJobId, type TransferQueues } from '../queues';
import { startWorker, type RunningWorker } from '../startWorker';
import { spawnTs, type Child } from '../testing/childProcess';
import { createTransferFixture, type TestCustomer, type TransferFixture } from '../testing/transferTestKit';
import { waitUntil } from '../testing/waitUntil';
import { defaultWorkerSettings, type WorkerSettings } from '../workerConfig';
import { requestTransfer, transferIdFor } from './requestTransfer';
import { sweepTransfers } from './sweeper';
import { inspectTransfer } from './transferProcess';

/**
 * The sweeper: transfers whose next step has no job (Redis lost its data; a process died between an append and
 * the enqueue) are found in rm.transfers and queued again from the event log.
 */
const logger = createLogger('test', 'silent');
const PIN = '123456';
let fx: TransferFixture;
let projector: ProjectorHandle;
let reader: ProjectionReader;
let redis: Redis;
let queues: TransferQueues;
const running: RunningWorker[] = [];
const children: Child[] = [];

async function worker(settings: Partial<WorkerSettings> = {}, sweepOnStart = true): Promise<RunningWorker> {
  const w = await startWorker({
    config: {
      ...defaultWorkerSettings({ WORKER_BACKOFF_MS: 100, WORKER_LOCK_DURATION_MS: 2000, WORKER_STALLED_INTERVAL_MS: 1000, ...settings }),
      REDIS_URL: fx.redis.url,
      REDIS_PREFIX: fx.redis.prefix,
      SETTLEMENT_DELAY_MS: 100,
      AUDIT_CHECK_EVERY_MS: 3_600_000,
    },
    store: fx.store,
    pool: fx.pool,
    logger,
    sweepOnStart,
  });
  running.push(w);
  return w;
}

async function customer(savingsCents = 0): Promise<TestCustomer> {
  return fx.openCustomer({ savingsCents, pinHash: `hash:${PIN}` });
}

function input(accountNumber: string, amount: number) {
  return { from: 'savings', amount, accountNumber, accountType: 'savings', to: 'Recipient', paymentPin: PIN };
}

/** Requested and debited, but no job queued (as if Redis lost it, or the API died before queueing). */
async function transferWithoutJob(payer: TestCustomer, accountNumber: string, amount: number): Promise<string> {
  const { transferId } = await requestTransfer(
    { store: fx.store, pool: fx.pool, logger, comparePin: async (pin, hash) => hash === `hash:${pin}` },
    { userId: payer.userId, input: transferInput.parse(input(accountNumber, amount)) },
  );
  return transferId;
}

async function projected(): Promise<void> {
  const last = fx.lastPosition();
  if (last) expect(await reader.waitForPosition(last, 15_000)).toBe(true);
}

async function done(transferId: string, timeoutMs = 20_000): Promise<void> {
  await waitUntil(async () => (await inspectTransfer(fx.store, transferId)).next === 'done', { timeoutMs, what: `transfer ${transferId} to finish` });
}

beforeAll(async () => {
  fx = await createTransferFixture('sweeper');
  projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
  reader = createProjectionReader(fx.pool);
  redis = new Redis(fx.redis.url, { maxRetriesPerRequest: null });
  queues = createTransferQueues({ connection: redis, prefix: fx.redis.prefix });
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.stop()));
  await Promise.all(children.splice(0).map((c) => c.kill()));
});

afterAll(async () => {
  await queues?.close();
  redis?.disconnect();
  await reader?.close();
  await projector?.stop();
  await fx?.close();
});

describe('sweeper', () => {
  it('queues the missing step of every unfinished transfer, once', async () => {
    const payer = await customer(100_00);
    const payee = await customer();
    const internal = await transferWithoutJob(payer, payee.accountNumber, 10);
    const external = await transferWithoutJob(payer, '4440001111', 20);
    await projected();
    // Swept before any worker runs: a worker's scheduled sweep starts at once and would race this one for the jobs.
    const report = await sweepTransfers({ pool: fx.pool, store: fx.store, queues, logger, settlementDelayMs: 100 });
    expect(report.requeued.map((r) => `${r.step}-${r.transferId}`).sort()).toEqual([transferJobId('credit', internal), transferJobId('send', external)].sort());
    const w = await worker({}, false);
    await done(internal);
    await done(external);
    expect(await fx.balances(payee.userId)).toEqual({ savings: 10_00, checking: 0 });
    expect(await fx.balances(payer.userId)).toEqual({ savings: 70_00, checking: 0 });
    await projected();
    expect((await w.sweep()).requeued).toEqual([]);
  });

  it('Redis flushed between the debit and the credit: the sweeper completes the transfer', async () => {
    const payer = await customer(100_00);
    const payee = await customer();
    // The worker process takes the credit job and stops right before the credit.
    const first = spawnTs('services/worker/src/main.ts', {
      DATABASE_URL: fx.db.url,
      REDIS_URL: fx.redis.url,
      REDIS_PREFIX: fx.redis.prefix,
      WORKER_FAULT: 'before-credit:hang',
      TRANSFER_SWEEP_EVERY_MS: '600000',
    });
    children.push(first);
    const { transferId } = await requestTransfer(
      {
        store: fx.store,
        pool: fx.pool,
        logger,
        comparePin: async (pin, hash) => hash === `hash:${pin}`,
        enqueue: (step, id) => ensureTransferJob(queues, step, id),
      },
      { userId: payer.userId, input: transferInput.parse(input(payee.accountNumber, 25)) },
    );
    await first.waitFor('FAULT before-credit');
    // Redis loses everything of this deployment (the job, its lock, the schedulers); the worker dies.
    await fx.redis.clean();
    expect(await queues.transfers.getJob(transferJobId('credit', transferId))).toBeUndefined();
    await first.kill();
    expect(await fx.balances(payee.userId)).toEqual({ savings: 0, checking: 0 });
    await projected();

    // A new worker: its start-up sweep finds the debited transfer in rm.transfers and queues the credit again.
    await worker({ TRANSFER_SWEEP_EVERY_MS: 600_000 });
    await done(transferId);
    expect(await fx.balances(payer.userId)).toEqual({ savings: 75_00, checking: 0 });
    expect(await fx.balances(payee.userId)).toEqual({ savings: 25_00, checking: 0 });
    expect(await fx.transferEvents(transferId)).toEqual(['TransferRequested', 'TransferDebited', 'TransferCredited']);
  });

  it('keeps sweeping on its schedule after Redis was flushed under a running worker', async () => {
    await worker({ TRANSFER_SWEEP_EVERY_MS: 300 }, false);
    await fx.redis.clean();
    const payer = await customer(100_00);
    const payee = await customer();
    const transferId = await transferWithoutJob(payer, payee.accountNumber, 5);
    await done(transferId);
    expect(await fx.balances(payee.userId)).toEqual({ savings: 5_00, checking: 0 });
  });
});

describe('the API process killed with SIGKILL mid-request', () => {
  function apiProcess(payer: TestCustomer, accountNumber: string, key: string, fault: string): Child {
    const child = spawnTs('services/worker/src/testing/requestTransferScript.ts', {
      DATABASE_URL: fx.db.url,
      REDIS_URL: fx.redis.url,
      REDIS_PREFIX: fx.redis.prefix,
      WORKER_FAULT: fault,
      TRANSFER_ABANDON_AFTER_MS: '3000',
      TRANSFER_REQUEST: JSON.stringify({ userId: payer.userId, input: input(accountNumber, 10), idempotencyKey: key }),
    });
    children.push(child);
    return child;
  }

  it('after TransferRequested: abandoned, nothing moved; after the debit or before queueing: completed', async () => {
    const payer = await customer(100_00);
    const payee = await customer();
    const cases = [
      ['k-requested', 'api-after-requested:hang'],
      ['k-debited', 'api-after-debit:hang'],
      ['k-enqueue', 'api-before-enqueue:hang'],
    ] as const;
    const processes = cases.map(([key, fault]) => apiProcess(payer, payee.accountNumber, key, fault));
    await Promise.all(processes.map((p, i) => p.waitFor(`FAULT ${cases[i]![1].split(':')[0]}`)));
    await Promise.all(processes.map((p) => p.kill()));
    const [abandoned, debited, unqueued] = cases.map(([key]) => transferIdFor(payer.userId, key)) as [string, string, string];
    expect(await fx.balances(payer.userId)).toEqual({ savings: 80_00, checking: 0 });
    await projected();

    await worker({ TRANSFER_SWEEP_EVERY_MS: 300, TRANSFER_ABANDON_AFTER_MS: 3000 });
    await done(debited);
    await done(unqueued);
    await done(abandoned, 30_000);
    expect(await fx.transferEvents(abandoned)).toEqual(['TransferRequested', 'TransferFailed']);
    expect(await fx.transferEvents(debited)).toEqual(['TransferRequested', 'TransferDebited', 'TransferCredited']);
    expect(await fx.transferEvents(unqueued)).toEqual(['TransferRequested', 'TransferDebited', 'TransferCredited']);
    expect(await fx.balances(payer.userId)).toEqual({ savings: 80_00, checking: 0 });
    expect(await fx.balances(payee.userId)).toEqual({ savings: 20_00, checking: 0 });
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDecider, streams, transferInput, type TransferPhase } from '@bank/domain';
import { migrateReadModels } from '@bank/projector';
import { comparePositions } from '@bank/eventstore';
import { createTransferFixture, spawnTs, waitUntil, type Child, type TestCustomer, type TransferFixture } from '@bank/testkit';
import type { FaultPoint } from './faults';
import { readProcessCheckpoint } from './processCheckpoint';
import { requestTransfer, type TransferAnswer } from './requestTransfer';

/**
 * The worker as a real process (`npm run worker`: the transfer process, ACH and maintenance jobs), killed with
 * SIGKILL at every point of a transfer and started again; and the request itself killed right after its debit. Every
 * internal transfer ends completed or refunded, each leg applied exactly once, the total money conserved; an
 * external one is queued for its ACH file exactly once (files, settlement and returns: services/ach).
 */
const PIN = '123456';
let fx: TransferFixture;
const children: Child[] = [];

function startWorker(fault?: FaultPoint): Child {
  const child = spawnTs('services/runtime/src/main.ts', {
    BANK_ROLE: 'worker',
    DATABASE_URL: fx.db.url,
    REDIS_URL: fx.redis.url,
    REDIS_PREFIX: fx.redis.prefix,
    PIN_KEYS: fx.pinKeysText,
    WORKER_LOCK_DURATION_MS: '1500',
    WORKER_STALLED_INTERVAL_MS: '500',
    WORKER_BACKOFF_MS: '100',
    TRANSFER_SWEEP_EVERY_MS: '600000',
    // A stop that hangs ends within the test's budget (the process logs the step it was in and exits with 1).
    SHUTDOWN_TIMEOUT_MS: '10000',
    ...(fault ? { TRANSFER_FAULT: `${fault}:exit` } : {}),
  });
  children.push(child);
  return child;
}

function request(payer: TestCustomer, accountNumber: string, amount: number): Promise<TransferAnswer> {
  return requestTransfer(
    { commands: fx.commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 50 },
    {
      userId: payer.userId,
      input: transferInput.parse({ from: 'savings', amount, accountNumber, accountType: 'savings', bankName: 'Bank', routingNumber: '021000021', to: 'Recipient', paymentPin: PIN }),
      idempotencyKey: randomUUID(),
    },
  );
}

/**
 * Stops a worker once the transfer process's checkpoint is past the transfer's debit. Stopped earlier (a step in its
 * retry backoff when the transfer was already seen done), the next worker would run the transfer again from the
 * checkpoint and pass its fault point for that old transfer, not for the case's own.
 */
async function stopWhenPast(worker: Child, payerId: string, transferId: string): Promise<void> {
  const debit = (await fx.store.readStream(streams.account(payerId))).find((e) => e.type === 'AccountDebited' && e.data.transferId === transferId);
  if (!debit) throw new Error(`No debit of ${transferId}`);
  await waitUntil(
    async () => {
      const checkpoint = await readProcessCheckpoint(fx.pool, 'transfers');
      return checkpoint !== undefined && comparePositions(checkpoint, debit.position) >= 0;
    },
    { timeoutMs: 30_000, what: `the transfer process's checkpoint past ${transferId}` },
  );
  await worker.stop();
}

async function phase(transferId: string): Promise<TransferPhase | 'none'> {
  return (await fx.transfer(transferId)).phase;
}

/** How many times each transaction id of the transfer's legs is on the accounts (each must be exactly once). */
async function legs(answer: TransferAnswer, payer: TestCustomer, payee?: TestCustomer): Promise<{ debit: number; credit: number; refund: number }> {
  const events = [...(await fx.store.readStream(`account-${payer.userId}`)), ...(payee ? await fx.store.readStream(`account-${payee.userId}`) : [])];
  const count = (predicate: (data: Record<string, unknown>, type: string) => boolean) => events.filter((e) => e.data.transferId === answer.transferId && predicate(e.data, e.type)).length;
  return {
    debit: count((_, type) => type === 'AccountDebited'),
    credit: count((data, type) => type === 'AccountCredited' && data.refundOf === undefined),
    refund: count((data, type) => type === 'AccountCredited' && data.refundOf !== undefined),
  };
}

beforeAll(async () => {
  fx = await createTransferFixture('transfer_crash');
  await migrateReadModels(fx.pool);
});

afterAll(async () => {
  await Promise.all(children.map((c) => c.kill()));
  await fx?.close();
});

// Each test may wait for a start (60 s), the fault (30 s) and the recovery (40 s): its timeout covers them, so that a
// loaded machine fails on what the waits name, not on the test's default 60 s.
describe('the worker killed with SIGKILL at every point of a transfer, then started again', { timeout: 180_000 }, () => {
  const cases: { point: FaultPoint; kind: 'internal' | 'external' | 'closed'; end: TransferPhase }[] = [
    { point: 'before-credit', kind: 'internal', end: 'credited' },
    { point: 'after-credit', kind: 'internal', end: 'credited' },
    { point: 'after-complete', kind: 'internal', end: 'credited' },
    { point: 'after-send', kind: 'external', end: 'debited' },
    { point: 'after-refund-credit', kind: 'closed', end: 'refunded' },
  ];
  const queuedTimes = async (transferId: string): Promise<number> =>
    (await fx.store.readStream(streams.achFiles())).filter((event) => event.type === 'AchEntryQueued' && event.data.transferId === transferId).length;

  it.each(cases)('$point ($kind): ends $end, each leg once, money conserved', async ({ point, kind, end }) => {
    const payer = await fx.openCustomer({ savingsCents: 1_000_00, pin: PIN });
    const payee = kind === 'external' ? undefined : await fx.openCustomer();
    if (payee && kind === 'closed') {
      await fx.commands.execute({
        decider: accountDecider,
        streamId: streams.account(payee.userId),
        decide: (state) => accountDecider.decide({ type: 'CloseAccount', adminId: fx.adminId, now: new Date().toISOString() }, state),
        context: { metadata: { actorRole: 'admin' } },
        commandType: 'CloseAccount',
      });
    }
    const accountNumber = payee?.accountNumber ?? '9876543210';
    const crashing = startWorker(point);
    await crashing.waitFor('BANK READY', { timeoutMs: 60_000 });
    const answer = await request(payer, accountNumber, 100);
    await crashing.waitFor(`FAULT ${point} ${answer.transferId}`, { timeoutMs: 30_000 });
    expect(await crashing.exited).toBeNull(); // killed by SIGKILL, no exit code
    if (kind === 'external') expect(await queuedTimes(answer.transferId)).toBe(0);
    const restarted = startWorker();
    await waitUntil(async () => (await phase(answer.transferId)) === end && (kind !== 'external' || (await queuedTimes(answer.transferId)) > 0), {
      timeoutMs: 40_000,
      what: `the transfer ${end}`,
    });
    await stopWhenPast(restarted, payer.userId, answer.transferId);

    expect(await legs(answer, payer, payee)).toEqual({ debit: 1, credit: kind === 'internal' ? 1 : 0, refund: kind === 'closed' ? 1 : 0 });
    if (kind === 'external') expect(await queuedTimes(answer.transferId)).toBe(1);
    const paid = kind === 'closed' ? 0 : 100_00;
    expect(await fx.balances(payer.userId)).toEqual({ savings: 1_000_00 - paid, checking: 0 });
    if (payee && kind === 'internal') expect(await fx.balances(payee.userId)).toEqual({ savings: 100_00, checking: 0 });
    const debit = (await fx.history(payer.userId)).transactions.get(answer.debitTransactionId);
    expect(debit?.status).toBe({ internal: 'completed', external: 'pending', closed: 'failed' }[kind]);
  });

  it('the request killed right after its debit: the transfer completes all the same, once', async () => {
    const payer = await fx.openCustomer({ savingsCents: 500_00, pin: PIN });
    const payee = await fx.openCustomer();
    const worker = startWorker();
    await worker.waitFor('BANK READY', { timeoutMs: 60_000 });
    const requester = spawnTs('services/transfers/test/requestTransferScript.ts', {
      DATABASE_URL: fx.db.url,
      PIN_KEYS: fx.pinKeysText,
      TRANSFER_FAULT: 'after-debit:exit',
      TRANSFER_REQUEST: JSON.stringify({ userId: payer.userId, input: { from: 'savings', amount: 50, accountNumber: payee.accountNumber, accountType: 'savings', paymentPin: PIN } }),
    });
    children.push(requester);
    await requester.waitFor('FAULT after-debit', { timeoutMs: 30_000 });
    await requester.exited;
    await waitUntil(async () => (await fx.balances(payee.userId)).savings === 50_00, { timeoutMs: 30_000, what: 'the credit' });
    await worker.stop();
    expect(await fx.balances(payer.userId)).toEqual({ savings: 450_00, checking: 0 });
    expect(await fx.balances(payee.userId)).toEqual({ savings: 50_00, checking: 0 });
  });
});

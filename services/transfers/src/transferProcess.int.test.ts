import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDecider, customerDecider, decideTransferRequest, streams, transferInput } from '@bank/domain';
import { migrateReadModels } from '@bank/projector';
import { createTransferFixture, waitUntil, type TestCustomer, type TransferFixture } from '@bank/testkit';
import { readProcessCheckpoint } from './processCheckpoint';
import { requestTransfer } from './requestTransfer';
import { startTransferProcess, type TransferProcessHandle } from './transferProcess';
import { readTransfer } from './transferSteps';

/**
 * The transfer process against the real PostgreSQL event store: it follows the log from its checkpoint and runs each
 * transfer's steps through the command handler. An external transfer is queued for the next ACH file; files,
 * settlement and returns are @bank/ach's (services/ach/src/cycle/achCycle.int.test.ts).
 */
const PIN = '123456';
let fx: TransferFixture;
let process_: TransferProcessHandle | undefined;

function startProcess(): TransferProcessHandle {
  process_ = startTransferProcess({
    store: fx.store,
    commands: fx.commands,
    pool: fx.pool,
    signals: fx.signals,
    checkpointEveryMs: 20,
  });
  return process_;
}

function transfer(payer: TestCustomer, body: Record<string, unknown>, key: string = randomUUID()) {
  return requestTransfer(
    { commands: fx.commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 10_000 },
    {
      userId: payer.userId,
      input: transferInput.parse({ from: 'savings', accountType: 'savings', bankName: 'Summit Bank', to: 'Recipient', paymentPin: PIN, ...body }),
      idempotencyKey: key,
    },
  );
}

beforeAll(async () => {
  fx = await createTransferFixture('transfer_process');
  // The recipient look-up reads the read models' tables (empty here: the reservation streams find every payee).
  await migrateReadModels(fx.pool);
  await startProcess().ready;
});

afterAll(async () => {
  await process_?.stop();
  await fx?.close();
});

describe('the transfer process, following the log', () => {
  it('internal: the request is one debit; the process credits the payee and the waiting request answers completed', async () => {
    const payer = await fx.openCustomer({ savingsCents: 100_00, pin: PIN });
    const payee = await fx.openCustomer();
    const answer = await transfer(payer, { amount: 25, accountNumber: payee.accountNumber });
    expect(answer).toMatchObject({ status: 'completed', internal: true });
    expect(answer.debit).toMatchObject({ amountCents: 25_00, balanceAfterCents: 75_00, status: 'pending', intent: { internal: true, payeeId: payee.userId } });
    expect(await fx.balances(payee.userId)).toEqual({ savings: 25_00, checking: 0 });
    expect((await fx.history(payer.userId)).transactions.get(answer.debitTransactionId)?.status).toBe('completed');
    // The answer comes once the debit is completed; the transfer's record follows at once.
    await waitUntil(async () => (await fx.transferEvents(answer.transferId)).length === 3, { what: 'the transfer record' });
    expect(await fx.transferEvents(answer.transferId)).toEqual(['TransferRequested', 'TransferDebited', 'TransferCredited']);
  });

  it('external: the debit waits, pending, queued once for the next ACH file, dated on the business date its service gives', async () => {
    const payer = await fx.openCustomer({ savingsCents: 100_00, pin: PIN });
    const dated = { commands: fx.commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 0, businessDate: async () => '2030-01-02' };
    const input = transferInput.parse({ from: 'savings', accountType: 'checking', bankName: 'Other Bank', to: 'Recipient', paymentPin: PIN, amount: 10, accountNumber: '9876543210', routingNumber: '021000021' });
    const answer = await requestTransfer(dated, { userId: payer.userId, input, idempotencyKey: randomUUID() });
    expect(answer.status).toBe('pending');
    expect(answer.debit?.businessDate).toBe('2030-01-02');
    const queued = async () => (await fx.store.readStream(streams.achFiles())).filter((event) => event.type === 'AchEntryQueued' && event.data.transferId === answer.transferId);
    await waitUntil(async () => (await queued()).length === 1, { what: 'the entry queued' });
    expect((await queued())[0]?.data).toMatchObject({ amountCents: 10_00, accountNumber: '9876543210', routingNumber: '021000021', transactionCode: 22, payerId: payer.userId, account: 'savings' });
    expect((await readTransfer(fx.commands, answer.transferId)).phase).toBe('debited');
    expect(await fx.transferEvents(answer.transferId)).toEqual(['TransferRequested', 'TransferDebited']);
    expect((await fx.history(payer.userId)).transactions.get(answer.debitTransactionId)?.status).toBe('pending');
    expect(await fx.balances(payer.userId)).toEqual({ savings: 90_00, checking: 0 });
  });

  it('external, requested before the request checked its bank details: no file can hold it, so it fails and is refunded', async () => {
    const payer = await fx.openCustomer({ savingsCents: 40_00, pin: PIN });
    const transferId = randomUUID();
    const customer = await fx.commands.read(customerDecider, streams.customer(payer.userId), (state) => state);
    // The debit as a store written before the check holds it: a blank routing number (a valid one is decided, then blanked).
    await fx.commands.execute({
      decider: accountDecider,
      streamId: streams.account(payer.userId),
      decide: (account) =>
        decideTransferRequest(
          {
            type: 'RequestTransfer',
            transferId,
            payerId: payer.userId,
            debitTransactionId: randomUUID(),
            creditTransactionId: randomUUID(),
            refundTransactionId: randomUUID(),
            from: 'savings',
            amountCents: 15_00,
            accountNumber: '9876543210',
            bankName: 'Other Bank',
            routingNumber: '021000021',
            accountType: 'checking',
            to: 'Recipient',
            pinMatches: true,
            now: new Date().toISOString(),
          },
          { customer, account, recipient: { kind: 'external' } },
        ).map((event) => (event.type === 'AccountDebited' && event.data.intent ? { ...event, data: { ...event.data, intent: { ...event.data.intent, routingNumber: '' } } } : event)),
      context: { metadata: { actorRole: 'customer', actorId: payer.userId } },
      commandType: 'RequestTransfer',
    });
    await waitUntil(async () => (await fx.transferEvents(transferId)).length === 4, { what: 'the transfer failed and refunded' });
    expect(await fx.transferEvents(transferId)).toEqual(['TransferRequested', 'TransferDebited', 'TransferFailed', 'TransferRefunded']);
    const failed = (await fx.store.readStream(streams.transfer(transferId))).find((event) => event.type === 'TransferFailed');
    expect(failed?.data).toMatchObject({ reason: 'Invalid routing number' });
    expect(await fx.balances(payer.userId)).toEqual({ savings: 40_00, checking: 0 });
    const queued = (await fx.store.readStream(streams.achFiles())).filter((event) => event.type === 'AchEntryQueued' && event.data.transferId === transferId);
    expect(queued).toEqual([]);
  });

  it('to a closed account: fails, refunds the payer, and the waiting request learns it', async () => {
    const payer = await fx.openCustomer({ savingsCents: 50_00, pin: PIN });
    const payee = await fx.openCustomer();
    await fx.commands.execute({
      decider: (await import('@bank/domain')).accountDecider,
      streamId: `account-${payee.userId}`,
      decide: (state) => (state.status === 'open' ? [{ type: 'AccountClosed' as const, data: { adminId: fx.adminId, closedAt: new Date().toISOString() } }] : []),
      context: { metadata: { actorRole: 'admin' } },
      commandType: 'CloseAccount',
    });
    const answer = await transfer(payer, { amount: 30, accountNumber: payee.accountNumber });
    expect(answer.status).toBe('failed');
    expect(await fx.balances(payer.userId)).toEqual({ savings: 50_00, checking: 0 });
    await waitUntil(async () => (await fx.transferEvents(answer.transferId)).length === 4, { what: 'the transfer record' });
    expect(await fx.transferEvents(answer.transferId)).toEqual(['TransferRequested', 'TransferDebited', 'TransferFailed', 'TransferRefunded']);
  });

  it('runs 32 transfers from different payers into one payee at once: all succeed, money conserved', async () => {
    const payee = await fx.openCustomer();
    const payers = await Promise.all(Array.from({ length: 32 }, () => fx.openCustomer({ savingsCents: 10_00, pin: PIN })));
    const answers = await Promise.all(payers.map((payer) => transfer(payer, { amount: 10, accountNumber: payee.accountNumber })));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 'completed'));
    expect(await fx.balances(payee.userId)).toEqual({ savings: 320_00, checking: 0 });
    for (const payer of payers) expect(await fx.balances(payer.userId)).toEqual({ savings: 0, checking: 0 });
  });

  it('after a stop and a restart, goes on from its checkpoint and runs every transfer once', async () => {
    const payer = await fx.openCustomer({ savingsCents: 100_00, pin: PIN });
    const payee = await fx.openCustomer();
    await process_!.stop();
    // Requested while no process runs: the request still answers (pending at its bound).
    const quick = requestTransfer(
      { commands: fx.commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 200 },
      { userId: payer.userId, input: transferInput.parse({ from: 'savings', amount: 7, accountNumber: payee.accountNumber, accountType: 'savings', paymentPin: PIN }) },
    );
    expect((await quick).status).toBe('pending');
    const checkpointBefore = await readProcessCheckpoint(fx.pool, 'transfers');
    await startProcess().ready;
    await waitUntil(async () => (await fx.balances(payee.userId)).savings === 7_00, { what: 'the credit after the restart' });
    expect(await fx.balances(payer.userId)).toEqual({ savings: 93_00, checking: 0 });
    await waitUntil(async () => {
      const after = await readProcessCheckpoint(fx.pool, 'transfers');
      return after !== undefined && (checkpointBefore === undefined || after.prepare > checkpointBefore.prepare);
    }, { what: 'the checkpoint to move' });
  });
});

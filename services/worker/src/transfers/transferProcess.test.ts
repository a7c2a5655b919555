import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferInput, type TransferInput } from '@bank/domain';
import { createLogger } from '@bank/platform';
import { migrateReadModels } from '@bank/projector';
import type { FaultPoint } from '../faults';
import { createTransferFixture, type TestCustomer, type TransferFixture } from '../testing/transferTestKit';
import { requestTransfer, type RequestTransferDeps } from './requestTransfer';
import { createSimulatedSettlement } from './settlement';
import { advanceTransfer, inspectTransfer, type TransferProcessDeps } from './transferProcess';

const logger = createLogger('test', 'silent');
const comparePin = async (pin: string, hash: string) => hash === `hash:${pin}`;
const PIN = '123456';

let fx: TransferFixture;

class Crash extends Error {}

function processDeps(overrides: Partial<TransferProcessDeps> = {}): TransferProcessDeps {
  return { store: fx.store, logger, settlement: createSimulatedSettlement(['0000000000']), abandonAfterMs: 60_000, ...overrides };
}

function requestDeps(overrides: Partial<RequestTransferDeps> = {}): RequestTransferDeps {
  return { store: fx.store, pool: fx.pool, logger, comparePin, ...overrides };
}

function crashAt(point: FaultPoint) {
  return async (at: FaultPoint) => {
    if (at === point) throw new Crash(point);
  };
}

function input(fields: Record<string, unknown>): TransferInput {
  return transferInput.parse({ from: 'savings', accountType: 'savings', bankName: 'Bank', routingNumber: '123456789', paymentPin: PIN, ...fields });
}

async function customer(savingsCents = 100_00, extra: Parameters<TransferFixture['openCustomer']>[0] = {}): Promise<TestCustomer> {
  return fx.openCustomer({ savingsCents, pinHash: `hash:${PIN}`, ...extra });
}

async function eventCount(): Promise<number> {
  return (await fx.store.readAll({ limit: 100_000 })).length;
}

beforeAll(async () => {
  fx = await createTransferFixture('transfer_process');
  await migrateReadModels(fx.pool);
});

afterAll(async () => {
  await fx?.close();
});

describe('internal transfer', () => {
  it('debits at once (pending), credits the payee in the worker step, and a second run appends nothing', async () => {
    const payer = await customer(100_00);
    const payee = await customer(0);
    const { transferId, request } = await requestTransfer(requestDeps(), { userId: payer.userId, input: input({ amount: 25.5, accountNumber: payee.accountNumber }) });
    expect(request.internal).toBe(true);
    expect(request.payeeId).toBe(payee.userId);
    expect(request.recipientName).toBe(`${payee.firstName} ${payee.lastName}`);
    expect(await fx.balances(payer.userId)).toEqual({ savings: 74_50, checking: 0 });
    const payerAccount = await fx.account(payer.userId);
    expect(payerAccount.status === 'open' && payerAccount.transactions[request.debitTransactionId]?.status).toBe('pending');
    expect(await fx.transferEvents(transferId)).toEqual(['TransferRequested', 'TransferDebited']);

    const result = await advanceTransfer(processDeps(), transferId, { settlementDelayMs: 0 });
    expect(result.ran).toEqual(['credit']);
    expect(result.next).toBe('done');
    expect(await fx.balances(payee.userId)).toEqual({ savings: 25_50, checking: 0 });
    const after = await fx.account(payer.userId);
    expect(after.status === 'open' && after.transactions[request.debitTransactionId]?.status).toBe('completed');
    expect(await fx.transferEvents(transferId)).toEqual(['TransferRequested', 'TransferDebited', 'TransferCredited']);

    const before = await eventCount();
    const again = await advanceTransfer(processDeps(), transferId, { settlementDelayMs: 0 });
    expect(again.ran).toEqual([]);
    expect(await eventCount()).toBe(before);
  });

  it('moves money between the payer’s own savings and checking', async () => {
    const payer = await customer(50_00);
    const { transferId } = await requestTransfer(requestDeps(), {
      userId: payer.userId,
      input: input({ amount: 20, accountNumber: payer.accountNumber, accountType: 'checking' }),
    });
    await advanceTransfer(processDeps(), transferId, { settlementDelayMs: 0 });
    expect(await fx.balances(payer.userId)).toEqual({ savings: 30_00, checking: 20_00 });
  });

  it('fails and refunds when the payee account is closed before the credit', async () => {
    const payer = await customer(100_00);
    const payee = await customer(0);
    const { transferId } = await requestTransfer(requestDeps(), { userId: payer.userId, input: input({ amount: 10, accountNumber: payee.accountNumber }) });
    const { handleCommand } = await import('@bank/core');
    const { accountDecider, streams } = await import('@bank/domain');
    await handleCommand({
      store: fx.store,
      streamId: streams.account(payee.userId),
      evolve: accountDecider.evolve,
      initialState: accountDecider.initialState,
      decide: (state) => accountDecider.decide({ type: 'CloseAccount', adminId: fx.adminId, now: new Date().toISOString() }, state),
      context: { metadata: { actorRole: 'admin' } },
    });
    const result = await advanceTransfer(processDeps(), transferId, { settlementDelayMs: 0 });
    expect(result.ran).toEqual(['credit', 'refund']);
    expect(await fx.transferEvents(transferId)).toEqual(['TransferRequested', 'TransferDebited', 'TransferFailed', 'TransferRefunded']);
    expect(await fx.balances(payer.userId)).toEqual({ savings: 100_00, checking: 0 });
    expect(await fx.balances(payee.userId)).toEqual({ savings: 0, checking: 0 });
  });
});

describe('external transfer', () => {
  it('is sent, then settled by the settlement step', async () => {
    const payer = await customer(100_00);
    const { transferId, request } = await requestTransfer(requestDeps(), { userId: payer.userId, input: input({ amount: 40, accountNumber: '9876543210', to: 'Someone Else' }) });
    expect(request.internal).toBe(false);
    expect(request.recipientName).toBe('Someone Else');
    const first = await advanceTransfer(processDeps(), transferId, { settlementDelayMs: 60_000 });
    expect(first).toMatchObject({ ran: ['send'], next: 'settle' });
    const second = await advanceTransfer(processDeps({ now: () => new Date(Date.now() + 61_000) }), transferId, { settlementDelayMs: 60_000 });
    expect(second).toMatchObject({ ran: ['settle'], next: 'done' });
    expect(await fx.transferEvents(transferId)).toEqual(['TransferRequested', 'TransferDebited', 'TransferSent', 'TransferSettled']);
    expect(await fx.balances(payer.userId)).toEqual({ savings: 60_00, checking: 0 });
    const account = await fx.account(payer.userId);
    expect(account.status === 'open' && account.transactions[request.debitTransactionId]?.status).toBe('completed');
  });

  it('to a rejected account number fails and refunds the payer', async () => {
    const payer = await customer(100_00);
    const { transferId, request } = await requestTransfer(requestDeps(), { userId: payer.userId, input: input({ amount: 40, accountNumber: '0000000000', to: 'Nobody' }) });
    const result = await advanceTransfer(processDeps(), transferId, { settlementDelayMs: 0 });
    expect(result).toMatchObject({ ran: ['send', 'settle', 'refund'], next: 'done' });
    expect(await fx.transferEvents(transferId)).toEqual(['TransferRequested', 'TransferDebited', 'TransferSent', 'TransferFailed', 'TransferRefunded']);
    expect(await fx.balances(payer.userId)).toEqual({ savings: 100_00, checking: 0 });
    const account = await fx.account(payer.userId);
    expect(account.status === 'open' && account.transactions[request.debitTransactionId]?.status).toBe('failed');
    expect(account.status === 'open' && account.transactions[request.refundTransactionId]?.amountCents).toBe(40_00);
  });
});

describe('refusals (API.md order)', () => {
  it('refuses with the spec’s texts and appends nothing', async () => {
    const payer = await customer(10_00);
    const blocked = await customer(10_00, { blocked: true });
    const noPin = await fx.openCustomer({ savingsCents: 10_00 });
    const payee = await customer(0);
    const before = await eventCount();
    const attempt = (userId: string, fields: Record<string, unknown>) => requestTransfer(requestDeps(), { userId, input: input(fields) });
    await expect(attempt(blocked.userId, { amount: 1, accountNumber: payee.accountNumber, paymentPin: '000000' })).rejects.toThrow(
      'Your account had been suspended, please contact bank support',
    );
    await expect(attempt(noPin.userId, { amount: 1, accountNumber: payee.accountNumber })).rejects.toThrow('Please set your payment pin');
    await expect(attempt(payer.userId, { amount: 1, accountNumber: payee.accountNumber, paymentPin: '000000' })).rejects.toThrow('Incorrect payment pin');
    await expect(attempt(payer.userId, { accountNumber: payee.accountNumber })).rejects.toThrow('Please fill all fields');
    await expect(attempt(payer.userId, { amount: 1 })).rejects.toThrow('Please fill all fields');
    await expect(attempt(payer.userId, { amount: 1, accountNumber: payer.accountNumber })).rejects.toThrow('You cannot transfer to the same account');
    await expect(attempt(payer.userId, { amount: 10.01, accountNumber: payee.accountNumber })).rejects.toThrow('You do not have enough balance');
    expect(await eventCount()).toBe(before);
  });

  it('the same Idempotency-Key twice is one transfer', async () => {
    const payer = await customer(100_00);
    const payee = await customer(0);
    const command = { userId: payer.userId, input: input({ amount: 30, accountNumber: payee.accountNumber }), idempotencyKey: 'key-1' };
    const [a, b] = await Promise.all([requestTransfer(requestDeps(), command), requestTransfer(requestDeps(), command)]);
    expect(a.transferId).toBe(b.transferId);
    const c = await requestTransfer(requestDeps(), command);
    expect(c.resumed).toBe(true);
    expect(await fx.balances(payer.userId)).toEqual({ savings: 70_00, checking: 0 });
    expect(await fx.transferEvents(a.transferId)).toEqual(['TransferRequested', 'TransferDebited']);
  });
});

describe('a crash at any point, then the step again: each leg exactly once', () => {
  const workerPoints: FaultPoint[] = ['before-credit', 'after-credit'];
  for (const point of workerPoints) {
    it(`internal, worker crashing at ${point}`, async () => {
      const payer = await customer(100_00);
      const payee = await customer(0);
      const { transferId } = await requestTransfer(requestDeps(), { userId: payer.userId, input: input({ amount: 10, accountNumber: payee.accountNumber }) });
      await expect(advanceTransfer(processDeps({ fault: crashAt(point) }), transferId, { settlementDelayMs: 0 })).rejects.toThrow(Crash);
      await advanceTransfer(processDeps(), transferId, { settlementDelayMs: 0 });
      await advanceTransfer(processDeps(), transferId, { settlementDelayMs: 0 });
      expect(await fx.balances(payer.userId)).toEqual({ savings: 90_00, checking: 0 });
      expect(await fx.balances(payee.userId)).toEqual({ savings: 10_00, checking: 0 });
      expect(await fx.transferEvents(transferId)).toEqual(['TransferRequested', 'TransferDebited', 'TransferCredited']);
    });
  }

  for (const [point, account] of [
    ['before-settle', '9876543210'],
    ['mid-settle', '9876543210'],
    ['mid-settle', '0000000000'],
    ['after-refund-credit', '0000000000'],
  ] as const) {
    it(`external to ${account}, worker crashing at ${point}`, async () => {
      const payer = await customer(100_00);
      const { transferId } = await requestTransfer(requestDeps(), { userId: payer.userId, input: input({ amount: 10, accountNumber: account, to: 'X' }) });
      await expect(advanceTransfer(processDeps({ fault: crashAt(point) }), transferId, { settlementDelayMs: 0 })).rejects.toThrow(Crash);
      await advanceTransfer(processDeps(), transferId, { settlementDelayMs: 0 });
      expect((await inspectTransfer(fx.store, transferId)).next).toBe('done');
      const rejected = account === '0000000000';
      expect(await fx.balances(payer.userId)).toEqual({ savings: rejected ? 100_00 : 90_00, checking: 0 });
      expect((await fx.transferEvents(transferId)).at(-1)).toBe(rejected ? 'TransferRefunded' : 'TransferSettled');
    });
  }

  it('API crashing after TransferRequested: abandoned after the timeout, nothing moved', async () => {
    const payer = await customer(100_00);
    const payee = await customer(0);
    const command = { userId: payer.userId, input: input({ amount: 10, accountNumber: payee.accountNumber }), idempotencyKey: 'crash-1' };
    await expect(requestTransfer(requestDeps({ fault: crashAt('api-after-requested') }), command)).rejects.toThrow(Crash);
    const { transferIdFor } = await import('./requestTransfer');
    const transferId = transferIdFor(payer.userId, 'crash-1');
    await expect(advanceTransfer(processDeps(), transferId, { settlementDelayMs: 0 })).rejects.toThrow('The request may still be in progress');
    const result = await advanceTransfer(processDeps({ abandonAfterMs: 1 }), transferId, { settlementDelayMs: 0 });
    expect(result).toMatchObject({ ran: ['debit'], next: 'done' });
    expect(await fx.transferEvents(transferId)).toEqual(['TransferRequested', 'TransferFailed']);
    expect(await fx.balances(payer.userId)).toEqual({ savings: 100_00, checking: 0 });
    expect(await fx.balances(payee.userId)).toEqual({ savings: 0, checking: 0 });
  });

  it('API crashing after the debit: the worker records TransferDebited and completes the transfer', async () => {
    const payer = await customer(100_00);
    const payee = await customer(0);
    const command = { userId: payer.userId, input: input({ amount: 10, accountNumber: payee.accountNumber }), idempotencyKey: 'crash-2' };
    await expect(requestTransfer(requestDeps({ fault: crashAt('api-after-debit') }), command)).rejects.toThrow(Crash);
    const { transferIdFor } = await import('./requestTransfer');
    const transferId = transferIdFor(payer.userId, 'crash-2');
    const result = await advanceTransfer(processDeps(), transferId, { settlementDelayMs: 0 });
    expect(result).toMatchObject({ ran: ['debit', 'credit'], next: 'done' });
    expect(await fx.balances(payer.userId)).toEqual({ savings: 90_00, checking: 0 });
    expect(await fx.balances(payee.userId)).toEqual({ savings: 10_00, checking: 0 });
    // The client's retry with the same key resumes and appends nothing more.
    const retry = await requestTransfer(requestDeps(), command);
    expect(retry.resumed).toBe(true);
    expect(await fx.transferEvents(transferId)).toEqual(['TransferRequested', 'TransferDebited', 'TransferCredited']);
  });
});

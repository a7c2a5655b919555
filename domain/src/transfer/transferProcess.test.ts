import { describe, expect, it } from 'vitest';
import type { AccountEvent } from '../account/accountDecider';
import { evolveAccount } from '../account/accountDecider';
import type { AccountState } from '../account/accountState';
import { initialAccountState, transactionsOf } from '../account/accountState';
import { foldEvents } from '../decider';
import { DomainError } from '../domainError';
import { expectValidEvents } from '../testing/deciderSpecification';
import { ADMIN_ID, CUSTOMER_ID, funded, LATER, NOW, opened, PAYEE_ACCOUNT_NUMBER, PAYEE_ID, uuid } from '../testing/fixtures';
import { decideTransferRequest } from './decideTransferRequest';
import type { RequestTransfer, TransferRecipient } from './decideTransferRequest';
import type { TransferEvent, TransferState } from './transferDecider';
import { evolveTransfer, initialTransferState } from './transferDecider';
import type { TransferStepCommand } from './transferProcess';
import { decideTransferStep, nextTransferStep } from './transferProcess';
import { evolveCustomerLedger, initialCustomerLedgerState } from '../replay/replayCustomer';
import { pinSet, registered } from '../testing/fixtures';

/** A tiny in-memory world of streams, appended in the order the process prescribes. */
class World {
  payer: AccountEvent[] = [opened(), funded('savings', 10000, 10000)];
  payee: AccountEvent[] = [opened(PAYEE_ID, PAYEE_ACCOUNT_NUMBER)];
  transfer: TransferEvent[] = [];

  account(events: AccountEvent[]): AccountState {
    return foldEvents(evolveAccount, initialAccountState, events);
  }
  transferState(): TransferState {
    return foldEvents(evolveTransfer, initialTransferState, this.transfer);
  }
  request(recipient: TransferRecipient, overrides: Partial<RequestTransfer> = {}): void {
    const customer = foldEvents(evolveCustomerLedger, initialCustomerLedgerState, [registered(), pinSet()]).customer;
    const decision = decideTransferRequest(
      {
        type: 'RequestTransfer',
        transferId: uuid(600),
        payerId: CUSTOMER_ID,
        debitTransactionId: uuid(601),
        creditTransactionId: uuid(602),
        refundTransactionId: uuid(603),
        from: 'savings',
        amountCents: 2500,
        accountNumber: PAYEE_ACCOUNT_NUMBER,
        accountType: 'checking',
        description: 'Dinner',
        pinMatches: true,
        now: NOW,
        ...overrides,
      },
      { customer, account: this.account(this.payer), recipient },
    );
    this.payer.push(...decision.payerAccount);
    this.transfer.push(...decision.transfer);
  }
  /** Decides a step and appends it: payee account, payer account, then transfer (or stops after `crashAfter`). */
  step(command: TransferStepCommand, crashAfter?: 'payee' | 'payer') {
    const toSelf = this.transferState().phase !== 'none' && (this.transferState() as { request: { payeeId?: string } }).request.payeeId === CUSTOMER_ID;
    const result = decideTransferStep(command, { transfer: this.transferState(), payerAccount: this.account(this.payer), payeeAccount: toSelf ? undefined : this.account(this.payee) });
    expectValidEvents(result);
    this.payee.push(...result.payeeAccount);
    if (crashAfter === 'payee') return result;
    this.payer.push(...result.payerAccount);
    if (crashAfter === 'payer') return result;
    this.transfer.push(...result.transfer);
    return result;
  }
  balances() {
    const payer = this.account(this.payer);
    const payee = this.account(this.payee);
    return {
      payer: payer.status === 'unopened' ? undefined : payer.balances,
      payee: payee.status === 'unopened' ? undefined : payee.balances,
    };
  }
  debitStatus() {
    return transactionsOf(this.account(this.payer)).find((t) => t.transactionId === uuid(601))?.status;
  }
}

const internal: TransferRecipient = { kind: 'internal', payeeId: PAYEE_ID, name: 'Grace Hopper' };
const external: TransferRecipient = { kind: 'external', name: 'Alan Turing' };
const empty = { payeeAccount: [], payerAccount: [], transfer: [] };

describe('an internal transfer', () => {
  it('credits the payee, then completes the payer’s debit', () => {
    const world = new World();
    world.request(internal);
    expect(world.debitStatus()).toBe('pending');
    expect(nextTransferStep(world.transferState())).toBe('credit_payee');
    const result = world.step({ type: 'CreditPayee', now: LATER });
    expect(result.payeeAccount).toEqual([
      {
        type: 'AccountCredited',
        data: { transactionId: uuid(602), account: 'checking', amountCents: 2500, direction: 'credit', description: 'Dinner', transferId: uuid(600), status: 'completed', occurredAt: LATER, balanceAfterCents: 2500 },
      },
    ]);
    expect(result.payerAccount).toEqual([
      { type: 'TransactionStatusChanged', data: { transactionId: uuid(601), status: 'completed', previousStatus: 'pending', transferId: uuid(600), occurredAt: LATER } },
    ]);
    expect(result.transfer).toEqual([
      { type: 'TransferCredited', data: { transferId: uuid(600), transactionId: uuid(602), payeeId: PAYEE_ID, account: 'checking', amountCents: 2500, occurredAt: LATER } },
    ]);
    expect(world.balances()).toEqual({ payer: { savings: 7500, checking: 0 }, payee: { savings: 0, checking: 2500 } });
    expect(world.debitStatus()).toBe('completed');
    expect(nextTransferStep(world.transferState())).toBe('done');
  });

  it('does nothing more when the step is run again', () => {
    const world = new World();
    world.request(internal);
    world.step({ type: 'CreditPayee', now: LATER });
    expect(world.step({ type: 'CreditPayee', now: LATER })).toEqual(empty);
  });

  it('heals a crash after the payee was credited without crediting twice', () => {
    const world = new World();
    world.request(internal);
    world.step({ type: 'CreditPayee', now: LATER }, 'payee');
    expect(nextTransferStep(world.transferState())).toBe('credit_payee');
    const retry = world.step({ type: 'CreditPayee', now: LATER });
    expect(retry.payeeAccount).toEqual([]);
    expect(retry.payerAccount).toHaveLength(1);
    expect(world.balances().payee).toEqual({ savings: 0, checking: 2500 });
    expect(nextTransferStep(world.transferState())).toBe('done');
  });

  it('between one’s own savings and checking, puts every account event on the one account', () => {
    const world = new World();
    world.request({ kind: 'internal', payeeId: CUSTOMER_ID, name: 'Ada Lovelace' }, { accountNumber: '1234567890' });
    const result = world.step({ type: 'CreditPayee', now: LATER });
    expect(result.payeeAccount).toEqual([]);
    expect(result.payerAccount.map((e) => e.type)).toEqual(['AccountCredited', 'TransactionStatusChanged']);
    expect(world.balances().payer).toEqual({ savings: 7500, checking: 2500 });
  });

  it('fails when the payee’s account is closed, then refunds the payer', () => {
    const world = new World();
    world.payee.push({ type: 'AccountClosed', data: { adminId: ADMIN_ID, closedAt: NOW } });
    world.request(internal);
    const result = world.step({ type: 'CreditPayee', now: LATER });
    expect(result).toEqual({ ...empty, transfer: [{ type: 'TransferFailed', data: { transferId: uuid(600), reason: 'Recipient account is closed', occurredAt: LATER } }] });
    expect(nextTransferStep(world.transferState())).toBe('refund');
    world.step({ type: 'RefundPayer', now: LATER });
    expect(world.balances().payer).toEqual({ savings: 10000, checking: 0 });
    expect(world.debitStatus()).toBe('failed');
    expect(nextTransferStep(world.transferState())).toBe('done');
  });

  it('cannot be sent to settlement', () => {
    const world = new World();
    world.request(internal);
    expect(() => world.step({ type: 'SendTransfer', now: LATER })).toThrow(new DomainError('invalid_transfer_step'));
  });

  it('cannot fail once credited', () => {
    const world = new World();
    world.request(internal);
    world.step({ type: 'CreditPayee', now: LATER });
    expect(() => world.step({ type: 'FailTransfer', reason: 'x', now: LATER })).toThrow('Transfer already completed');
  });
});

describe('an external transfer', () => {
  it('is sent, then settled: the debit becomes completed', () => {
    const world = new World();
    world.request(external);
    expect(nextTransferStep(world.transferState())).toBe('send');
    expect(world.step({ type: 'SendTransfer', now: LATER }).transfer).toEqual([{ type: 'TransferSent', data: { transferId: uuid(600), occurredAt: LATER } }]);
    expect(nextTransferStep(world.transferState())).toBe('settle');
    const settled = world.step({ type: 'SettleTransfer', now: LATER });
    expect(settled.transfer).toEqual([{ type: 'TransferSettled', data: { transferId: uuid(600), occurredAt: LATER } }]);
    expect(world.debitStatus()).toBe('completed');
    expect(world.balances().payer).toEqual({ savings: 7500, checking: 0 });
    expect(world.balances().payee).toEqual({ savings: 0, checking: 0 });
    expect(nextTransferStep(world.transferState())).toBe('done');
    expect(world.step({ type: 'SettleTransfer', now: LATER })).toEqual(empty);
  });

  it('fails, then refunds the payer: debit failed, balance restored', () => {
    const world = new World();
    world.request(external);
    world.step({ type: 'SendTransfer', now: LATER });
    expect(world.step({ type: 'FailTransfer', reason: 'Unknown routing number', now: LATER }).transfer).toEqual([
      { type: 'TransferFailed', data: { transferId: uuid(600), reason: 'Unknown routing number', occurredAt: LATER } },
    ]);
    expect(nextTransferStep(world.transferState())).toBe('refund');
    const refund = world.step({ type: 'RefundPayer', now: LATER });
    expect(refund.payerAccount).toEqual([
      { type: 'TransactionStatusChanged', data: { transactionId: uuid(601), status: 'failed', previousStatus: 'pending', transferId: uuid(600), occurredAt: LATER } },
      {
        type: 'AccountCredited',
        data: { transactionId: uuid(603), account: 'savings', amountCents: 2500, direction: 'credit', description: 'Refund: transfer to Alan Turing', transferId: uuid(600), status: 'completed', occurredAt: LATER, balanceAfterCents: 10000, refundOf: uuid(601) },
      },
    ]);
    expect(refund.transfer).toEqual([{ type: 'TransferRefunded', data: { transferId: uuid(600), transactionId: uuid(603), account: 'savings', amountCents: 2500, occurredAt: LATER } }]);
    expect(world.balances().payer).toEqual({ savings: 10000, checking: 0 });
    expect(nextTransferStep(world.transferState())).toBe('done');
    expect(world.step({ type: 'RefundPayer', now: LATER })).toEqual(empty);
  });

  it('heals a crash during the refund without refunding twice', () => {
    const world = new World();
    world.request(external);
    world.step({ type: 'FailTransfer', reason: 'Rejected', now: LATER });
    world.step({ type: 'RefundPayer', now: LATER }, 'payer');
    expect(nextTransferStep(world.transferState())).toBe('refund');
    const retry = world.step({ type: 'RefundPayer', now: LATER });
    expect(retry.payerAccount).toEqual([]);
    expect(retry.transfer.map((e) => e.type)).toEqual(['TransferRefunded']);
    expect(world.balances().payer).toEqual({ savings: 10000, checking: 0 });
  });

  it('cannot settle once failed', () => {
    const world = new World();
    world.request(external);
    world.step({ type: 'FailTransfer', reason: 'Rejected', now: LATER });
    expect(() => world.step({ type: 'SettleTransfer', now: LATER })).toThrow('Transfer already failed');
    expect(() => world.step({ type: 'SendTransfer', now: LATER })).toThrow('Transfer already failed');
  });

  it('cannot fail once settled, nor once its debit was completed by a settlement that crashed half-way', () => {
    const settledWorld = new World();
    settledWorld.request(external);
    settledWorld.step({ type: 'SettleTransfer', now: LATER });
    expect(() => settledWorld.step({ type: 'FailTransfer', reason: 'x', now: LATER })).toThrow('Transfer already completed');

    const crashed = new World();
    crashed.request(external);
    crashed.step({ type: 'SettleTransfer', now: LATER }, 'payer');
    expect(nextTransferStep(crashed.transferState())).toBe('send');
    expect(() => crashed.step({ type: 'FailTransfer', reason: 'x', now: LATER })).toThrow('Transfer already completed');
    expect(crashed.step({ type: 'SettleTransfer', now: LATER }).transfer.map((e) => e.type)).toEqual(['TransferSettled']);
  });

  it('cannot credit a payee', () => {
    const world = new World();
    world.request(external);
    expect(() => world.step({ type: 'CreditPayee', now: LATER })).toThrow('This step does not apply to this transfer');
  });

  it('cannot be refunded before it failed', () => {
    const world = new World();
    world.request(external);
    expect(() => world.step({ type: 'RefundPayer', now: LATER })).toThrow('This step does not apply to this transfer');
  });
});

describe('an unknown transfer', () => {
  it('has nothing left to do and refuses steps with not_found', () => {
    expect(nextTransferStep(initialTransferState)).toBe('done');
    expect(() => decideTransferStep({ type: 'SendTransfer', now: NOW }, { transfer: initialTransferState, payerAccount: initialAccountState })).toThrow('Transfer not found');
  });
});

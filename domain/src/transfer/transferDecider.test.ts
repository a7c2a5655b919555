import { describe, it } from 'vitest';
import { deciderSpecification, refused } from '../testing/deciderSpecification';
import { CUSTOMER_ID, LATER, NOW, PAYEE_ID, uuid } from '../testing/fixtures';
import type { TransferEvent, TransferRequest } from './transferDecider';
import { transferDecider } from './transferDecider';

const { given } = deciderSpecification(transferDecider);
const TRANSFER = uuid(600);

const internal: TransferRequest = {
  transferId: TRANSFER,
  payerId: CUSTOMER_ID,
  from: 'savings',
  amountCents: 2500,
  accountNumber: '5555555555',
  bankName: 'Summit Bank',
  routingNumber: '021000021',
  accountType: 'checking',
  recipientName: 'Grace Hopper',
  description: 'Dinner',
  internal: true,
  payeeId: PAYEE_ID,
  requestedAt: NOW,
  debitTransactionId: uuid(601),
  creditTransactionId: uuid(602),
  refundTransactionId: uuid(603),
};
const { payeeId: _payee, creditTransactionId: _credit, ...externalFields } = internal;
const external: TransferRequest = { ...externalFields, internal: false, accountNumber: '9876543210', bankName: 'Other Bank' };

const requested = (request: TransferRequest): TransferEvent => ({ type: 'TransferRequested', data: request });
const debited = (request: TransferRequest): TransferEvent => ({
  type: 'TransferDebited',
  data: { transferId: TRANSFER, transactionId: request.debitTransactionId, account: 'savings', amountCents: 2500, occurredAt: NOW },
});
const started = (request: TransferRequest) => [requested(request), debited(request)];
const failed: TransferEvent = { type: 'TransferFailed', data: { transferId: TRANSFER, reason: 'Rejected', occurredAt: LATER } };

describe('the record of a transfer', () => {
  it('starts from the payer’s debit: requested and debited', () => {
    given([]).when({ type: 'StartTransfer', request: internal }).then(started(internal));
  });

  it('starts once', () => {
    given(started(internal)).when({ type: 'StartTransfer', request: internal }).then([]);
  });

  it('completes a record begun before the debit with the debit alone', () => {
    given([requested(internal)]).when({ type: 'StartTransfer', request: internal }).then([debited(internal)]);
  });

  it('records the payee credit of an internal transfer once', () => {
    const credited: TransferEvent = {
      type: 'TransferCredited',
      data: { transferId: TRANSFER, transactionId: uuid(602), payeeId: PAYEE_ID, account: 'checking', amountCents: 2500, occurredAt: LATER },
    };
    given(started(internal)).when({ type: 'RecordPayeeCredit', now: LATER }).then([credited]);
    given([...started(internal), credited]).when({ type: 'RecordPayeeCredit', now: LATER }).then([]);
  });

  it('refuses steps of the other kind of transfer', () => {
    given(started(external)).when({ type: 'RecordPayeeCredit', now: LATER }).then(refused('invalid_transfer_step', 'This step does not apply to this transfer'));
    given(started(internal)).when({ type: 'RecordSent', now: LATER }).then(refused('invalid_transfer_step', 'This step does not apply to this transfer'));
  });

  it('refuses to settle or credit a failed transfer', () => {
    const sent: TransferEvent = { type: 'TransferSent', data: { transferId: TRANSFER, occurredAt: LATER } };
    given([...started(external), sent, failed]).when({ type: 'RecordSettlement', now: LATER }).then(refused('transfer_failed', 'Transfer already failed'));
    given([...started(internal), failed]).when({ type: 'RecordPayeeCredit', now: LATER }).then(refused('transfer_failed', 'Transfer already failed'));
  });

  it('refuses to fail a settled transfer', () => {
    const sent: TransferEvent = { type: 'TransferSent', data: { transferId: TRANSFER, occurredAt: LATER } };
    const settled: TransferEvent = { type: 'TransferSettled', data: { transferId: TRANSFER, occurredAt: LATER } };
    given([...started(external), sent, settled])
      .when({ type: 'RecordFailure', reason: 'Rejected', now: LATER })
      .then(refused('transfer_completed', 'Transfer already completed'));
  });

  it('refunds only a failed transfer, once', () => {
    given(started(internal)).when({ type: 'RecordRefund', now: LATER }).then(refused('invalid_transfer_step', 'This step does not apply to this transfer'));
    const refunded: TransferEvent = {
      type: 'TransferRefunded',
      data: { transferId: TRANSFER, transactionId: uuid(603), account: 'savings', amountCents: 2500, occurredAt: LATER },
    };
    given([...started(internal), failed]).when({ type: 'RecordRefund', now: LATER }).then([refunded]);
    given([...started(internal), failed, refunded]).when({ type: 'RecordRefund', now: LATER }).then([]);
  });

  it('refuses any step of a transfer that does not exist', () => {
    given([]).when({ type: 'RecordSent', now: LATER }).then(refused('not_found', 'Transfer not found'));
  });
});

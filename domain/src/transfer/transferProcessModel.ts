import type { AccountCommand, CreditForTransfer, RefundTransfer, SetTransactionStatus } from '../account/accountCommands';
import type { AchCycleCommand } from '../ach/cycle/achCycleDecider';
import { waitingEntryOf } from '../ach/cycle/achActions';
import { assertNever } from '../decider';
import { isDomainError } from '../domainError';
import type { EventData } from '../events/eventSchemas';
import type { TransferCommand, TransferRequest, TransferState } from './transferDecider';

/**
 * The transfer process: everything after the request. The request is ONE event, the payer's debit
 * (`AccountDebited`, status pending) carrying the transfer's intent with every id fixed up front; the services' transfer
 * process reads each such debit from the global log and runs the steps below. Each action is a command on ONE stream,
 * decided by that stream's own decider; actions run in the order listed, and every one of them is idempotent (keyed by
 * the ids fixed at the request), so after a crash the process runs the same step again from the start.
 *
 *   credit  (internal)  1. payee account   CreditForTransfer            refused because the payee is gone → 'fail'
 *                       2. payer account   SetTransactionStatus completed
 *                       3. transfer        StartTransfer, RecordPayeeCredit        → credited (done)
 *   send    (external)  1. transfer        StartTransfer
 *                       2. achFiles        QueueAchEntry                            → waits for the next ACH file
 *   settle  (external)  run by the COB of the file's effective date (docs/ach.md), not by the process:
 *                       1. transfer        RecordSettlement                         (the commit point: or a return)
 *                       2. payer account   SetTransactionStatus completed           → settled (done)
 *   fail    (reason)    1. payer account   SetTransactionStatus failed              (the commit point of the outcome)
 *                       2. transfer        StartTransfer, RecordFailure(reason)     → failed
 *   refund  (failed)    1. payer account   SetTransactionStatus failed (again: a no-op), RefundTransfer
 *                       2. transfer        RecordRefund                             → refunded (done)
 *
 * The payer's debit status is where an outcome commits: it goes pending → completed or pending → failed exactly
 * once, so a settlement asked twice (a crash, a retry) cannot both complete and refund the same transfer — the
 * second outcome is refused by the payer's account ('transaction_final') and the process follows the first.
 */
export type TransferStep = 'credit' | 'send' | 'settle' | 'fail' | 'refund' | 'done';

/** What the process does next, from the transfer's record (phase 'none': not started yet, only the debit exists). */
export function nextTransferStep(state: TransferState, request: Pick<TransferRequest, 'internal'>): TransferStep {
  switch (state.phase) {
    case 'none':
    case 'requested':
    case 'debited':
      return request.internal ? 'credit' : 'send';
    case 'sent':
      return 'settle';
    case 'failed':
      return 'refund';
    case 'credited':
    case 'settled':
    case 'refunded':
      return 'done';
    default:
      return assertNever(state);
  }
}

/** The transfer a debit requests, or undefined for a debit that carries no intent (or is not a transfer's). */
export function transferRequestOf(payerId: string, debit: EventData<'AccountDebited'>): TransferRequest | undefined {
  const { intent, transferId } = debit;
  if (!intent || !transferId) return undefined;
  return {
    transferId,
    payerId,
    from: debit.account,
    amountCents: debit.amountCents,
    accountNumber: intent.accountNumber,
    bankName: intent.bankName,
    routingNumber: intent.routingNumber,
    accountType: intent.accountType,
    recipientName: intent.recipientName,
    description: intent.description,
    internal: intent.internal,
    ...(intent.payeeId === undefined ? {} : { payeeId: intent.payeeId }),
    requestedAt: intent.requestedAt,
    debitTransactionId: debit.transactionId,
    ...(intent.creditTransactionId === undefined ? {} : { creditTransactionId: intent.creditTransactionId }),
    refundTransactionId: intent.refundTransactionId,
  };
}

/** One action of a step: a command for the payer's or the payee's account stream, or commands for the transfer's. */
export type TransferAction =
  | { readonly stream: 'payer'; readonly command: AccountCommand }
  | { readonly stream: 'payee'; readonly command: CreditForTransfer }
  | { readonly stream: 'transfer'; readonly commands: readonly TransferCommand[] }
  | { readonly stream: 'ach'; readonly command: AchCycleCommand };

export const PAYEE_ACCOUNT_CLOSED_REASON = 'Recipient account is closed';

/** A refusal of the payee's credit that fails the transfer (the payee's account is closed or does not exist). */
export function isPayeeGone(error: unknown): boolean {
  return isDomainError(error) && (error.code === 'closed' || error.code === 'not_found');
}

/** A refusal of the payer's status change: the outcome was already committed the other way. */
export function isOutcomeAlreadyCommitted(error: unknown): boolean {
  return isDomainError(error) && error.code === 'transaction_final';
}

function payeeCreditDescription(request: TransferRequest): string {
  return request.description || 'Transfer received';
}

function refundDescription(request: TransferRequest): string {
  return request.recipientName ? `Refund: transfer to ${request.recipientName}` : 'Refund: transfer';
}

function debitStatus(request: TransferRequest, status: 'completed' | 'failed', now: string): SetTransactionStatus {
  return { type: 'SetTransactionStatus', transactionId: request.debitTransactionId, status, now };
}

/** Where a transfer's money waits between the payer's debit and its outcome (ledger/chartOfAccounts.ts). */
export function transferClearingOf(request: Pick<TransferRequest, 'internal'>): 'transfers-in-transit' | 'ach-outbound' {
  return request.internal ? 'transfers-in-transit' : 'ach-outbound';
}

/** Options of a step: the failure's reason ('fail') and the business date its money belongs to. */
export interface TransferStepOptions {
  readonly reason?: string | undefined;
  readonly businessDate?: string | undefined;
}

function refund(request: TransferRequest, now: string, businessDate: string | undefined): RefundTransfer {
  return {
    type: 'RefundTransfer',
    transactionId: request.refundTransactionId,
    transferId: request.transferId,
    refundOf: request.debitTransactionId,
    clearing: transferClearingOf(request),
    account: request.from,
    amountCents: request.amountCents,
    description: refundDescription(request),
    businessDate,
    now,
  };
}

/** The actions of one step, in order (see the module comment). `options.reason` is the failure's, for 'fail'. */
export function transferStepActions(
  step: Exclude<TransferStep, 'done'>,
  request: TransferRequest,
  now: string,
  options: TransferStepOptions = {},
): TransferAction[] {
  const { reason, businessDate } = options;
  const start: TransferCommand = { type: 'StartTransfer', request };
  switch (step) {
    case 'credit': {
      if (!request.internal || request.payeeId === undefined || request.creditTransactionId === undefined) {
        throw new TypeError(`Transfer ${request.transferId} is not internal: it has no payee to credit`);
      }
      return [
        {
          stream: 'payee',
          command: {
            type: 'CreditForTransfer',
            transactionId: request.creditTransactionId,
            transferId: request.transferId,
            account: request.accountType,
            amountCents: request.amountCents,
            description: payeeCreditDescription(request),
            businessDate,
            now,
          },
        },
        { stream: 'payer', command: debitStatus(request, 'completed', now) },
        { stream: 'transfer', commands: [start, { type: 'RecordPayeeCredit', now }] },
      ];
    }
    case 'send':
      return [
        { stream: 'transfer', commands: [start] },
        { stream: 'ach', command: { type: 'QueueAchEntry', entry: waitingEntryOf(request), now } },
      ];
    case 'settle':
      return [
        { stream: 'transfer', commands: [{ type: 'RecordSettlement', now, businessDate }] },
        { stream: 'payer', command: debitStatus(request, 'completed', now) },
      ];
    case 'fail':
      return [
        { stream: 'payer', command: debitStatus(request, 'failed', now) },
        { stream: 'transfer', commands: [start, { type: 'RecordFailure', reason: reason ?? 'Transfer failed', now }] },
      ];
    case 'refund':
      return [
        { stream: 'payer', command: debitStatus(request, 'failed', now) },
        { stream: 'payer', command: refund(request, now, businessDate) },
        { stream: 'transfer', commands: [{ type: 'RecordRefund', now }] },
      ];
    default:
      return assertNever(step);
  }
}

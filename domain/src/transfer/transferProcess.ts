import type { AccountEvent } from '../account/accountDecider';
import { decideAccount, evolveAccount } from '../account/accountDecider';
import type { AccountState } from '../account/accountState';
import { assertNever, foldEvents } from '../decider';
import { refuse } from '../domainError';
import type { TransferEvent, TransferRequest, TransferState } from './transferDecider';
import { decideTransfer, requireTransfer } from './transferDecider';

/**
 * The transfer process, run by the worker after the request.
 *
 *   nextTransferStep(state) → what remains:
 *     'credit_payee'  internal, requested/debited       → decideTransferStep({ type: 'CreditPayee' })
 *     'send'          external, requested/debited       → decideTransferStep({ type: 'SendTransfer' })
 *     'settle'        external, sent                    → the settlement outcome: 'SettleTransfer' or 'FailTransfer'
 *     'refund'        failed, not yet refunded          → decideTransferStep({ type: 'RefundPayer' })
 *     'done'          credited, settled, refunded (or no such transfer)
 *
 * decideTransferStep returns the events per stream. APPEND IN THIS ORDER: payeeAccount, payerAccount, transfer.
 * The transfer stream's event marks the step done, so a crash between appends is healed by running the same step
 * again: every account effect is idempotent by transactionId/status and yields [] when already applied.
 *
 * Statuses: the payer's debit is 'pending' from the request; it becomes 'completed' (TransactionStatusChanged)
 * when the payee is credited (internal) or the transfer settles (external), and 'failed' on refund.
 */
export type TransferStep = 'credit_payee' | 'send' | 'settle' | 'refund' | 'done';

export function nextTransferStep(state: TransferState): TransferStep {
  switch (state.phase) {
    case 'none':
    case 'credited':
    case 'settled':
    case 'refunded':
      return 'done';
    case 'requested':
    case 'debited':
      return state.request.internal ? 'credit_payee' : 'send';
    case 'sent':
      return 'settle';
    case 'failed':
      return 'refund';
    default:
      return assertNever(state);
  }
}

export type TransferStepCommand =
  /** Internal: credit the payee (or fail the transfer when the payee's account is closed or missing). */
  | { readonly type: 'CreditPayee'; readonly now: string }
  /** External: handed to settlement. */
  | { readonly type: 'SendTransfer'; readonly now: string }
  /** External: settlement confirmed. */
  | { readonly type: 'SettleTransfer'; readonly now: string }
  /** Settlement (or anything else) failed; the refund is the next step. */
  | { readonly type: 'FailTransfer'; readonly reason: string; readonly now: string }
  /** After a failure: mark the debit failed and refund the payer. */
  | { readonly type: 'RefundPayer'; readonly now: string };

export interface TransferStepContext {
  /** State of `transfer-<transferId>`. */
  readonly transfer: TransferState;
  /** State of `account-<payerId>`. */
  readonly payerAccount: AccountState;
  /** State of `account-<payeeId>`, for CreditPayee of an internal transfer to someone else. */
  readonly payeeAccount?: AccountState | undefined;
}

export interface TransferStepResult {
  /** For `account-<payeeId>` (empty when the payee is the payer: then everything is in payerAccount). */
  readonly payeeAccount: AccountEvent[];
  /** For `account-<payerId>`. */
  readonly payerAccount: AccountEvent[];
  /** For `transfer-<transferId>`; append last. */
  readonly transfer: TransferEvent[];
}

export const PAYEE_ACCOUNT_CLOSED_REASON = 'Recipient account is closed';

function payeeCreditDescription(request: TransferRequest): string {
  return request.description || 'Transfer received';
}

function refundDescription(request: TransferRequest): string {
  return request.recipientName ? `Refund: transfer to ${request.recipientName}` : 'Refund: transfer';
}

function creditPayee(now: string, request: TransferRequest, context: TransferStepContext, transfer: TransferState): TransferStepResult {
  const { payeeId, creditTransactionId } = request;
  if (!request.internal || payeeId === undefined || creditTransactionId === undefined) refuse('invalid_transfer_step');
  const toSelf = payeeId === request.payerId;
  const payeeState = toSelf ? context.payerAccount : context.payeeAccount;
  if (payeeState === undefined) throw new TypeError('CreditPayee needs the payee account state');
  const alreadyCredited = payeeState.status !== 'unopened' && payeeState.transactions[creditTransactionId] !== undefined;
  if (!alreadyCredited && payeeState.status !== 'open') {
    if (transfer.phase === 'credited') return { payeeAccount: [], payerAccount: [], transfer: [] };
    return { payeeAccount: [], payerAccount: [], transfer: decideTransfer({ type: 'RecordFailure', reason: PAYEE_ACCOUNT_CLOSED_REASON, now }, transfer) };
  }
  const transferEvents = decideTransfer({ type: 'RecordPayeeCredit', now }, transfer);
  const credit = decideAccount(
    {
      type: 'CreditForTransfer',
      transactionId: creditTransactionId,
      transferId: request.transferId,
      account: request.accountType,
      amountCents: request.amountCents,
      description: payeeCreditDescription(request),
      now,
    },
    payeeState,
  );
  const payerState = toSelf ? foldEvents(evolveAccount, context.payerAccount, credit) : context.payerAccount;
  const completed = decideAccount({ type: 'SetTransactionStatus', transactionId: request.debitTransactionId, status: 'completed', now }, payerState);
  return toSelf
    ? { payeeAccount: [], payerAccount: [...credit, ...completed], transfer: transferEvents }
    : { payeeAccount: credit, payerAccount: completed, transfer: transferEvents };
}

/**
 * Decides one step of the process (see the module comment for the order of appends).
 * Throws DomainError: 'not_found' (no transfer), 'invalid_transfer_step' (e.g. SendTransfer on an internal transfer),
 * 'transfer_failed' (settling/crediting a failed transfer), 'transfer_completed' (failing a credited or settled transfer,
 * or one whose debit is already completed).
 */
export function decideTransferStep(command: TransferStepCommand, context: TransferStepContext): TransferStepResult {
  const transfer = requireTransfer(context.transfer);
  const { request } = transfer;
  const none: AccountEvent[] = [];
  switch (command.type) {
    case 'CreditPayee':
      return creditPayee(command.now, request, context, transfer);
    case 'SendTransfer':
      return { payeeAccount: none, payerAccount: none, transfer: decideTransfer({ type: 'RecordSent', now: command.now }, transfer) };
    case 'SettleTransfer': {
      const transferEvents = decideTransfer({ type: 'RecordSettlement', now: command.now }, transfer);
      const completed = decideAccount(
        { type: 'SetTransactionStatus', transactionId: request.debitTransactionId, status: 'completed', now: command.now },
        context.payerAccount,
      );
      return { payeeAccount: none, payerAccount: completed, transfer: transferEvents };
    }
    case 'FailTransfer': {
      const debit = context.payerAccount.status === 'unopened' ? undefined : context.payerAccount.transactions[request.debitTransactionId];
      if (debit?.status === 'completed' && transfer.phase !== 'failed' && transfer.phase !== 'refunded') refuse('transfer_completed');
      return { payeeAccount: none, payerAccount: none, transfer: decideTransfer({ type: 'RecordFailure', reason: command.reason, now: command.now }, transfer) };
    }
    case 'RefundPayer': {
      const transferEvents = decideTransfer({ type: 'RecordRefund', now: command.now }, transfer);
      const failed = decideAccount(
        { type: 'SetTransactionStatus', transactionId: request.debitTransactionId, status: 'failed', now: command.now },
        context.payerAccount,
      );
      const refund = decideAccount(
        {
          type: 'RefundTransfer',
          transactionId: request.refundTransactionId,
          transferId: request.transferId,
          refundOf: request.debitTransactionId,
          account: request.from,
          amountCents: request.amountCents,
          description: refundDescription(request),
          now: command.now,
        },
        foldEvents(evolveAccount, context.payerAccount, failed),
      );
      return { payeeAccount: none, payerAccount: [...failed, ...refund], transfer: transferEvents };
    }
    default:
      return assertNever(command);
  }
}

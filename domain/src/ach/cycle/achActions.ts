import type { AccountCommand } from '../../account/accountCommands';
import type { TransferCommand, TransferRequest } from '../../transfer/transferDecider';
import { describeReturnReason, type ReturnReasonCode } from '../nacha/returnReasons';
import type { WaitingEntry } from './achCycleState';

/**
 * The ACH cycle's effects on the other streams, in the order the services run them (each command idempotent, keyed
 * by ids fixed at the transfer's request). The transfer stream is where an entry's outcome commits: settled at
 * the COB, or returned; the payer's debit status follows it.
 */

/** The waiting entry of an external transfer: 22 to a checking account, 32 to savings. */
export function waitingEntryOf(request: TransferRequest): WaitingEntry {
  return {
    transferId: request.transferId,
    amountCents: request.amountCents,
    routingNumber: request.routingNumber,
    accountNumber: request.accountNumber,
    name: request.recipientName,
    transactionCode: request.accountType === 'savings' ? 32 : 22,
    payerId: request.payerId,
    account: request.from,
  };
}

/** The words of a return on the customer's refund: `Returned: R01 Insufficient funds`. */
export function returnDescription(reasonCode: ReturnReasonCode): string {
  return `Returned: ${describeReturnReason(reasonCode)}`;
}

/** An entry settles at the COB of its effective date: the record first (the commit point), then the payer's debit. */
export function settlementActions(request: TransferRequest, now: string, businessDate: string): { transfer: TransferCommand; payer: AccountCommand } {
  return {
    transfer: { type: 'RecordSettlement', now, businessDate },
    payer: { type: 'SetTransactionStatus', transactionId: request.debitTransactionId, status: 'completed', now },
  };
}

/** A return: the record first (it says whether the entry had settled), then the payer's debit and refund. */
export function returnRecordCommand(reasonCode: ReturnReasonCode, now: string): TransferCommand {
  return { type: 'RecordReturn', returnCode: reasonCode, reason: returnDescription(reasonCode), now };
}

/** The payer's side of a return: the debit fails (even once completed) and the refund comes from where the money is. */
export function returnPayerCommands(request: TransferRequest, reasonCode: ReturnReasonCode, afterSettlement: boolean, now: string, businessDate: string): AccountCommand[] {
  return [
    { type: 'SetTransactionStatus', transactionId: request.debitTransactionId, status: 'failed', achReturn: true, now },
    {
      type: 'RefundTransfer',
      transactionId: request.refundTransactionId,
      transferId: request.transferId,
      refundOf: request.debitTransactionId,
      clearing: afterSettlement ? 'cash-at-fed' : 'ach-outbound',
      account: request.from,
      amountCents: request.amountCents,
      description: returnDescription(reasonCode),
      businessDate,
      now,
    },
  ];
}

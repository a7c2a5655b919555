import { assertNever } from '../decider';
import type { MoneyEvent } from './accountDecider';

/**
 * What produced a transaction, the one vocabulary of the read model (rm.transactions.kind), the auditors' replay and
 * the statements: a transfer's leg, a credit or debit that is no transfer (ACH), a refund of a returned transfer,
 * the month's interest paid, a balance adjustment, a staff posting, a reversal.
 */
export const TRANSACTION_KINDS = ['transfer', 'credit', 'debit', 'refund', 'interest', 'adjustment', 'staff', 'reversal'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** The kind of a money event: the one mapping every reader uses. */
export function transactionKindOf(event: MoneyEvent): TransactionKind {
  switch (event.type) {
    case 'AccountCredited':
      if (event.data.interest !== undefined) return 'interest';
      if (event.data.refundOf !== undefined) return 'refund';
      return event.data.transferId === undefined ? 'credit' : 'transfer';
    case 'AccountDebited':
      return event.data.transferId === undefined ? 'debit' : 'transfer';
    case 'BalanceAdjusted':
      return 'adjustment';
    case 'StaffTransactionPosted':
      return 'staff';
    case 'TransactionReversed':
      return 'reversal';
    default:
      return assertNever(event);
  }
}

import type { Transaction, TransactionStatus } from '../../../lib/api/types';

const labels: Record<TransactionStatus, string> = { completed: 'Completed', pending: 'Pending', failed: 'Failed', reversed: 'Reversed' };

/**
 * The word for a transaction's status. The debit of a transfer to another bank (`external`) reads "Sent" while it
 * waits for the ACH file and its settlement, and "Settled" once completed (API.md, ACH: the web app may word them
 * so). Everything else, internal transfers included, keeps its status's word.
 */
export function statusLabel(transaction: Pick<Transaction, 'status' | 'transactionType' | 'external'>): string {
  if (transaction.transactionType === 'debit' && transaction.external) {
    if (transaction.status === 'pending') return 'Sent';
    if (transaction.status === 'completed') return 'Settled';
  }
  return labels[transaction.status];
}

/** A transaction's status as a coloured badge (the word is always there: colour is never the only signal). */
export function StatusBadge({ transaction }: { transaction: Pick<Transaction, 'status' | 'transactionType' | 'external'> }) {
  return <span className={`status-badge status-${transaction.status}`}>{statusLabel(transaction)}</span>;
}

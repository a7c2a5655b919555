import type { TransactionStatus } from '../../../lib/api/types';

const labels: Record<TransactionStatus, string> = { completed: 'Completed', pending: 'Pending', failed: 'Failed', reversed: 'Reversed' };

/** A transaction's status as a coloured badge (the word is always there: colour is never the only signal). */
export function StatusBadge({ status }: { status: TransactionStatus }) {
  return <span className={`status-badge status-${status}`}>{labels[status]}</span>;
}

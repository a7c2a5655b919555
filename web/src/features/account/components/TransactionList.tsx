import type { Transaction } from '../../../lib/api/types';
import { formatDate, formatMoney } from '../../../components/money';
import { StatusBadge } from './StatusBadge';

const accountLabel = { savings: 'Savings', checking: 'Checking' } as const;

/** A signed amount: credits with a plus, debits with a minus. */
export function signedAmount(transaction: Pick<Transaction, 'amount' | 'transactionType'>): string {
  return transaction.transactionType === 'credit' ? `+${formatMoney(transaction.amount)}` : `-${formatMoney(transaction.amount)}`;
}

/** Transactions newest first: date, description, account, signed and coloured amount, status. */
export function TransactionList({ transactions, label }: { transactions: readonly Transaction[]; label: string }) {
  return (
    <ul className="txn-list" aria-label={label}>
      {transactions.map((transaction) => (
        <li key={transaction._id} className={`txn txn-${transaction.status}`}>
          <span className={`txn-icon txn-icon-${transaction.transactionType}`} aria-hidden="true">
            {transaction.transactionType === 'credit' ? '↓' : '↑'}
          </span>
          <div className="txn-main">
            <span className="txn-description">{transaction.description || (transaction.transactionType === 'credit' ? 'Credit' : 'Debit')}</span>
            <span className="txn-meta">
              <time dateTime={transaction.date}>{formatDate(transaction.date)}</time>
              <span aria-hidden="true"> · </span>
              <span>{accountLabel[transaction.account] ?? transaction.account}</span>
            </span>
          </div>
          <div className="txn-side">
            <span className={`txn-amount txn-amount-${transaction.transactionType}`}>
              <span className="visually-hidden">{transaction.transactionType === 'credit' ? 'Credit ' : 'Debit '}</span>
              {signedAmount(transaction)}
            </span>
            <StatusBadge transaction={transaction} />
          </div>
        </li>
      ))}
    </ul>
  );
}

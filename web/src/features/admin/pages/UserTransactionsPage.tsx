import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Button } from '../../../components/Button';
import { EmptyState } from '../../../components/EmptyState';
import { formatDate, formatMoney } from '../../../components/money';
import { QueryPager } from '../../../components/Pager';
import { LoadingBlock } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/api/apiError';
import { useCursorTrail } from '../../../lib/api/paging';
import { useAdminUser } from '../../../lib/api/queries/useAdminUser';
import { useReverseTransaction } from '../../../lib/api/queries/useReverseTransaction';
import { useUserTransactions } from '../../../lib/api/queries/useUserTransactions';
import type { Transaction } from '../../../lib/api/types';
import { AdminBadge } from '../components/AdminBadge';
import { AdminPageTitle } from '../components/AdminPageTitle';
import { confirmedDelete, type ActionResult } from '../components/confirmedDelete';
import { fullName, statusLabels, statusTone } from '../components/adminLabels';

export const DELETE_TRANSACTION_QUESTION = 'Are you sure you want to delete this transaction?';

/**
 * /admin/transactions/:id: a customer's transactions, 50 a page with Previous / Next; Delete reverses one after a
 * native confirmation.
 */
export function UserTransactionsPage() {
  const { id = '' } = useParams();
  const user = useAdminUser(id);
  const trail = useCursorTrail(id);
  const transactions = useUserTransactions(id, trail.cursor);
  const rows = transactions.data?.data;
  const reverse = useReverseTransaction(id);
  const [result, setResult] = useState<ActionResult>(null);
  const name = user.data ? fullName(user.data) : 'Customer';

  // Spec §5: a native confirmation before the transaction is deleted (reversed).
  const reverseById = confirmedDelete(reverse, DELETE_TRANSACTION_QUESTION, 'Transaction reversed', setResult);
  const remove = (transaction: Transaction) => reverseById(transaction._id);

  return (
    <div className="admin-page">
      <AdminPageTitle
        back={{ to: `/admin/users/${id}`, label: name }}
        lead={user.data ? `${user.data.email} · account ${user.data.account.number}` : undefined}
        actions={
          <Link to={`/admin/transactions/add-transactions?userId=${id}`} className="btn btn-primary">
            Add transaction
          </Link>
        }
      >
        {`Transactions of ${name}`}
      </AdminPageTitle>
      {result ? (
        <Alert kind={result.kind} onDismiss={() => setResult(null)}>
          {result.message}
        </Alert>
      ) : null}
      {transactions.isPending ? <LoadingBlock label="Loading transactions…" /> : null}
      {transactions.isError ? <Alert kind="error">{errorMessage(transactions.error)}</Alert> : null}
      {rows?.length === 0 && !trail.hasPrevious ? <EmptyState title="No transactions yet." /> : null}
      {rows && rows.length > 0 ? (
        <div className="table-wrap">
          <table className="table admin-table">
            <caption className="visually-hidden">Transactions of {name}</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Description</th>
                <th scope="col">Account</th>
                <th scope="col">Type</th>
                <th scope="col" className="admin-num">
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((transaction) => (
                <tr key={transaction._id} className={transaction.status === 'reversed' ? 'admin-row-muted' : undefined}>
                  <td className="admin-nowrap">{formatDate(transaction.date)}</td>
                  <td className="admin-wrap">{transaction.description}</td>
                  <td>{transaction.account === 'checking' ? 'Checking' : 'Savings'}</td>
                  <td>{transaction.transactionType === 'credit' ? 'Credit' : 'Debit'}</td>
                  <td className={`admin-num admin-amount-${transaction.transactionType}`}>
                    {transaction.transactionType === 'credit' ? '+' : '-'}
                    {formatMoney(transaction.amount)}
                  </td>
                  <td>
                    <AdminBadge tone={statusTone[transaction.status]}>{statusLabels[transaction.status]}</AdminBadge>
                  </td>
                  <td>
                    {transaction.status === 'reversed' ? null : (
                      <Button
                        variant="danger"
                        className="admin-small-btn"
                        onClick={() => remove(transaction)}
                        loading={reverse.isPending && reverse.variables === transaction._id}
                        disabled={reverse.isPending}
                        aria-label={`Delete ${transaction.description || 'transaction'} of ${formatDate(transaction.date)}`}
                      >
                        Delete
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <QueryPager label="Transactions" trail={trail} query={transactions} />
    </div>
  );
}

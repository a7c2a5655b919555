import { useId } from 'react';
import { Alert } from '../../components/Alert';
import { EmptyState } from '../../components/EmptyState';
import { LoadingBlock } from '../../components/Spinner';
import { formatMoney } from '../../components/money';
import { errorMessage } from '../../lib/api/apiError';
import { useBalancesAt } from './auditApi';
import { formatInstant, fromLocalInputValue, toLocalInputValue } from './auditFormat';

export interface BalancesAtPanelProps {
  userId: string;
  /** The instant asked about (ISO). */
  at: string;
  onChangeAt: (iso: string) => void;
}

/** Balances replayed from the events as they stood at a chosen date and time. */
export function BalancesAtPanel({ userId, at, onChangeAt }: BalancesAtPanelProps) {
  const inputId = useId();
  const balances = useBalancesAt(userId, at);
  return (
    <div className="audit-balances-at">
      <div className="field audit-at-field">
        <label htmlFor={inputId}>Date and time</label>
        <input
          id={inputId}
          type="datetime-local"
          step={1}
          value={toLocalInputValue(new Date(at))}
          onChange={(event) => {
            const iso = fromLocalInputValue(event.target.value);
            if (iso) onChangeAt(iso);
          }}
        />
        <div className="field-hint">Your local time. The balances are replayed from the events, not read from the read models.</div>
      </div>
      {balances.isPending ? (
        <LoadingBlock label="Replaying…" />
      ) : balances.isError ? (
        <Alert kind="error">{errorMessage(balances.error)}</Alert>
      ) : (
        <div aria-busy={balances.isFetching || undefined}>
          <p className="audit-as-of">As of {formatInstant(balances.data.at)}</p>
          <dl className="audit-balance-cards">
            <div>
              <dt>Savings</dt>
              <dd data-testid="balance-at-savings">{formatMoney(balances.data.savings)}</dd>
            </div>
            <div>
              <dt>Checking</dt>
              <dd data-testid="balance-at-checking">{formatMoney(balances.data.checking)}</dd>
            </div>
          </dl>
          {balances.data.transactions.length === 0 ? (
            <EmptyState title="No transactions by then." />
          ) : (
            <div className="audit-table-wrap">
              <table className="audit-table">
                <caption>
                  Transactions as of then ({balances.data.transactionsTotal ?? balances.data.transactions.length})
                  {(balances.data.transactionsTotal ?? 0) > balances.data.transactions.length ? `, the newest ${balances.data.transactions.length} shown` : ''}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Description</th>
                    <th scope="col">Account</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="num">
                      Amount
                    </th>
                    <th scope="col" className="num">
                      Balance after
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {balances.data.transactions.map((tx) => (
                    <tr key={tx._id}>
                      <td>{formatInstant(tx.date)}</td>
                      <td>{tx.description}</td>
                      <td>{tx.account}</td>
                      <td>{tx.status}</td>
                      <td className="num">{`${tx.transactionType === 'debit' ? '−' : '+'}${formatMoney(tx.amount)}`}</td>
                      <td className="num">{formatMoney(tx.balanceAfter)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </div>
  );
}

import { Link } from 'react-router';
import { ledgerAccountOf } from '@bank/domain';
import { Alert } from '../../components/Alert';
import { formatMoney } from '../../components/money';
import { LoadingBlock } from '../../components/Spinner';
import { errorMessage } from '../../lib/api/apiError';
import { formatInstant } from '../audit/auditFormat';
import { ClearingAccountCard } from './ClearingAccountCard';
import { DifferenceCell } from './DifferenceCell';
import { useReconciliation } from './ledgerApi';
import { ledgerEntriesPath } from './ledgerPaths';

/**
 * /audit/ledger/reconciliation: each control account against the sum of its customers' balances, each clearing account
 * against its open items. A difference of zero says so; any other is red, with the open items behind it.
 */
export function ReconciliationPage() {
  const reconciliation = useReconciliation();
  if (reconciliation.isPending) return <LoadingBlock label="Reconciling…" />;
  if (reconciliation.isError) return <Alert kind="error">{errorMessage(reconciliation.error)}</Alert>;
  const { ok, controls, clearing } = reconciliation.data;
  return (
    <section aria-labelledby="reconciliation-heading" aria-busy={reconciliation.isFetching || undefined}>
      <h2 id="reconciliation-heading">Reconciliation</h2>
      {ok ? (
        <Alert kind="success">
          <strong>Reconciled</strong>: every control account equals its customers&apos; balances and every clearing account its open items.
        </Alert>
      ) : (
        <Alert kind="error">
          <strong>Not reconciled</strong>: the accounts in red below differ from what should stand behind them.
        </Alert>
      )}
      <section className="audit-card" aria-labelledby="controls-heading">
        <h3 id="controls-heading">Control accounts</h3>
        <div className="audit-table-wrap">
          <table className="audit-table stack-table ledger-table">
            <caption className="visually-hidden">Each control account against the sum of its customers&apos; balances</caption>
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col" className="num">
                  Balance
                </th>
                <th scope="col" className="num">
                  Customers&apos; balances
                </th>
                <th scope="col" className="num">
                  Difference
                </th>
              </tr>
            </thead>
            <tbody>
              {controls.map((control) => (
                <tr key={control.key} className={control.difference === 0 ? undefined : 'ledger-row-bad'}>
                  <th scope="row" data-label="Account">
                    <Link to={ledgerEntriesPath(control.key)}>{ledgerAccountOf(control.key)?.name ?? control.key}</Link>
                  </th>
                  <td data-label="Balance" className="num">
                    {formatMoney(control.balance)}
                  </td>
                  <td data-label="Customers' balances" className="num">
                    {formatMoney(control.subledgerTotal)}
                  </td>
                  <DifferenceCell difference={control.difference} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section className="audit-card" aria-labelledby="clearing-heading">
        <h3 id="clearing-heading">Clearing accounts</h3>
        {clearing.map((account) => (
          <ClearingAccountCard key={account.key} account={account} />
        ))}
      </section>
      <p className="audit-muted ledger-small">Checked {formatInstant(new Date(reconciliation.dataUpdatedAt).toISOString())}.</p>
    </section>
  );
}

import { Alert } from '../../components/Alert';
import { EmptyState } from '../../components/EmptyState';
import { LoadingBlock } from '../../components/Spinner';
import { errorMessage } from '../../lib/api/apiError';
import { LedgerAccountsTable } from './LedgerAccountsTable';
import { useLedgerAccounts } from './ledgerApi';

/** /audit/ledger/accounts: the chart of accounts with each account's balance; each links to its entries. */
export function ChartOfAccountsPage() {
  const accounts = useLedgerAccounts();
  return (
    <section aria-labelledby="accounts-heading">
      <h2 id="accounts-heading">Chart of accounts</h2>
      <p className="audit-muted">
        Balance: debits − credits for assets and expenses, credits − debits for the others. Open an account for its journal lines.
      </p>
      {accounts.isPending ? (
        <LoadingBlock label="Loading the chart of accounts…" />
      ) : accounts.isError ? (
        <Alert kind="error">{errorMessage(accounts.error)}</Alert>
      ) : accounts.data.length === 0 ? (
        <EmptyState title="The chart of accounts is empty." />
      ) : (
        <LedgerAccountsTable caption={`${accounts.data.length} accounts, by code`} accounts={accounts.data} />
      )}
    </section>
  );
}

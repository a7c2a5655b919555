import { Link, useParams, useSearchParams } from 'react-router';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { formatMoney } from '../../components/money';
import { LoadingBlock } from '../../components/Spinner';
import { ApiError, errorMessage } from '../../lib/api/apiError';
import { EntriesFilters } from './EntriesFilters';
import { EntriesTable } from './EntriesTable';
import { LedgerDownloads } from './LedgerDownloads';
import { useLedgerAccounts, useLedgerEntries } from './ledgerApi';
import { countOf, LEDGER_PATH } from './ledgerPaths';
import type { LedgerEntryFilters } from './ledgerTypes';

const FILTERS = ['from', 'to', 'customerId'] as const;

/**
 * /audit/ledger/accounts/:key?from&to&customerId: one account's journal lines, filtered (the filters live in the
 * address, so a customer's page can link here), a page at a time with Show more, and as CSV with the same filters.
 */
export function AccountEntriesPage() {
  const { key = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const filters: LedgerEntryFilters = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? '']).filter(([, value]) => value));
  const accounts = useLedgerAccounts();
  const account = accounts.data?.find((row) => row.key === key);
  const entries = useLedgerEntries(key, filters);
  const filtered = Object.keys(filters).length > 0;
  const unknown = entries.isError && entries.error instanceof ApiError && entries.error.status === 404;

  return (
    <section aria-labelledby="entries-heading">
      <Link to={`${LEDGER_PATH}/accounts`} className="ledger-back">
        ← Chart of accounts
      </Link>
      <h2 id="entries-heading">{account ? `${account.code} ${account.name}` : key}</h2>
      {account ? (
        <p className="audit-muted">
          {account.type} · {account.key} · balance {formatMoney(account.balance)} (debits {formatMoney(account.debits)}, credits {formatMoney(account.credits)})
        </p>
      ) : null}
      {/* A new set of filters is a new list: the form starts from what the address says. */}
      <EntriesFilters key={params.toString()} filters={filters} onApply={(next) => setParams({ ...next })} />
      {entries.isPending ? (
        <LoadingBlock label="Loading the journal lines…" />
      ) : entries.isError && !entries.isFetchNextPageError ? (
        <Alert kind="error">{unknown ? `No ledger account with the key “${key}”.` : errorMessage(entries.error)}</Alert>
      ) : entries.data === undefined || entries.data.length === 0 ? (
        <EmptyState title={filtered ? 'No journal lines match these filters.' : 'No journal lines on this account yet.'} />
      ) : (
        <>
          <EntriesTable
            entries={entries.data}
            caption={`${countOf(entries.data.length, 'journal line', 'journal lines')}${entries.hasNextPage ? ' shown, more to load' : ''}, oldest first`}
          />
          {entries.hasNextPage ? (
            <Button variant="secondary" loading={entries.isFetchingNextPage} onClick={() => void entries.fetchNextPage()}>
              Show more lines
            </Button>
          ) : null}
          {entries.isFetchNextPageError ? <Alert kind="error">{errorMessage(entries.error)}</Alert> : null}
        </>
      )}
      {unknown ? null : (
        <LedgerDownloads
          path={`/audit/ledger/accounts/${encodeURIComponent(key)}/entries`}
          query={{ ...filters }}
          fileName={`ledger-${key}-entries`}
          what="journal lines"
          formats={['csv']}
        />
      )}
    </section>
  );
}

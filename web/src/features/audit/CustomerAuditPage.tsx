import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { LoadingBlock } from '../../components/Spinner';
import { ApiError, errorMessage } from '../../lib/api/apiError';
import { fetchEventsCsv, useCustomerEvents } from './auditApi';
import { identityFromEvents } from './auditFormat';
import { BalanceChart } from './BalanceChart';
import { BalancesAtPanel } from './BalancesAtPanel';
import { StaffStatementPanel } from '../statements/StaffStatementPanel';
import { StaffInterestPanel } from '../interest/StaffInterestPanel';
import { Timeline } from './Timeline';
import { CustomerJournalLinks } from '../ledger/CustomerJournalLinks';

function CsvButton({ userId }: { userId: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const blob = await fetchEventsCsv(userId);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `customer-${userId}-events.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="secondary" loading={busy} onClick={() => void download()}>
        Download CSV
      </Button>
      {error ? <Alert kind="error">{error}</Alert> : null}
    </>
  );
}

/** /audit/users/:id — one customer's whole record: identity, balance chart, balances at an instant, timeline. */
export function CustomerAuditPage() {
  const { id = '' } = useParams();
  const events = useCustomerEvents(id);
  const [at, setAt] = useState(() => new Date().toISOString());

  if (events.isPending) return <LoadingBlock label="Loading the customer's history…" />;
  // A failed "Show more" keeps what is loaded and says so under the timeline; only a failed first load is the page.
  if (events.isError && !events.isFetchNextPageError) {
    const notFound = events.error instanceof ApiError && events.error.status === 404;
    return (
      <section className="audit-page">
        <h1>Customer history</h1>
        <Alert kind="error">{notFound ? 'No customer with this id.' : errorMessage(events.error)}</Alert>
        <Link to="/audit">Back to the search</Link>
      </section>
    );
  }

  const identity = identityFromEvents(events.data, id);
  const showBalancesAt = (time: string) => {
    setAt(time);
    const panel = document.getElementById('balances-at');
    if (panel && typeof panel.scrollIntoView === 'function') panel.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  return (
    <section className="audit-page">
      <div className="audit-page-head">
        <div>
          <h1>{identity ? `${identity.firstName} ${identity.lastName}` : 'Customer history'}</h1>
          <p className="audit-muted">
            {identity ? `${identity.email} · account ${identity.accountNumber}${identity.closed ? ' · closed' : ''} · ` : ''}
            id {id}
          </p>
          <CustomerJournalLinks customerId={id} className="audit-muted" />
        </div>
        <CsvButton userId={id} />
      </div>
      {events.data.length === 0 ? (
        <EmptyState title="This customer has no events." />
      ) : (
        <>
          <section aria-labelledby="chart-heading" className="audit-card">
            <h2 id="chart-heading">Balances over time</h2>
            <BalanceChart events={events.data} onSelect={(event) => showBalancesAt(event.time)} />
          </section>
          <section aria-labelledby="balances-at-heading" className="audit-card" id="balances-at">
            <h2 id="balances-at-heading">Balances at a moment</h2>
            <BalancesAtPanel userId={id} at={at} onChangeAt={setAt} />
          </section>
          <StaffStatementPanel userId={id} className="audit-card" />
          <StaffInterestPanel userId={id} className="audit-card" />
          <section aria-labelledby="timeline-heading" className="audit-card">
            <h2 id="timeline-heading">
              Timeline ({events.data.length} events{events.hasNextPage ? ', the oldest first; more to load' : ''})
            </h2>
            <Timeline
              events={events.data}
              onShowBalances={(event) => showBalancesAt(event.time)}
              {...(events.hasNextPage ? { more: { loading: events.isFetchingNextPage, load: () => void events.fetchNextPage() } } : {})}
            />
            {events.isFetchNextPageError ? <Alert kind="error">{errorMessage(events.error)}</Alert> : null}
          </section>
        </>
      )}
    </section>
  );
}

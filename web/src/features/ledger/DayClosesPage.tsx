import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { formatMoney } from '../../components/money';
import { LoadingBlock } from '../../components/Spinner';
import { errorMessage } from '../../lib/api/apiError';
import { formatInstant } from '../audit/auditFormat';
import { useDayCloses } from './ledgerApi';
import { countOf } from './ledgerPaths';
import type { DayClose } from './ledgerTypes';

/** The first characters of a journal hash: enough to tell days apart; the whole hash is its title. */
const SHORT_HASH = 12;

function DayRow({ day }: { day: DayClose }) {
  return (
    <tr className={day.balanced ? undefined : 'ledger-row-bad'}>
      <th scope="row" data-label="Business date">
        {day.businessDate}
      </th>
      <td data-label="Closed at">
        <time dateTime={day.closedAt}>{formatInstant(day.closedAt)}</time>
      </td>
      <td data-label="Debits" className="num">
        {formatMoney(day.totalDebits)}
      </td>
      <td data-label="Credits" className="num">
        {formatMoney(day.totalCredits)}
      </td>
      <td data-label="Balanced" className={day.balanced ? 'ledger-ok' : 'ledger-bad'}>
        {day.balanced ? 'Balanced' : 'Out of balance'}
      </td>
      <td data-label="Journal hash" className="ledger-mono">
        <abbr title={day.journalHash}>{day.journalHash.slice(0, SHORT_HASH)}…</abbr>
      </td>
    </tr>
  );
}

/** /audit/ledger/days: the day closes, newest first (totals as of each close), a page at a time with Show more. */
export function DayClosesPage() {
  const days = useDayCloses();
  return (
    <section aria-labelledby="days-heading">
      <h2 id="days-heading">Day closes</h2>
      <p className="audit-muted">
        Each close records the trial balance&apos;s totals at the end of its business date and a SHA-256 hash of that day&apos;s journal lines (hover for the
        whole hash).
      </p>
      {days.isPending ? (
        <LoadingBlock label="Loading the day closes…" />
      ) : days.isError && !days.isFetchNextPageError ? (
        <Alert kind="error">{errorMessage(days.error)}</Alert>
      ) : days.data === undefined || days.data.length === 0 ? (
        <EmptyState title="No business day has been closed yet." />
      ) : (
        <>
          <div className="audit-table-wrap">
            <table className="audit-table stack-table ledger-table">
              <caption>{`${countOf(days.data.length, 'day close', 'day closes')}${days.hasNextPage ? ' shown, more to load' : ''}, newest first`}</caption>
              <thead>
                <tr>
                  <th scope="col">Business date</th>
                  <th scope="col">Closed at</th>
                  <th scope="col" className="num">
                    Total debits
                  </th>
                  <th scope="col" className="num">
                    Total credits
                  </th>
                  <th scope="col">Balanced</th>
                  <th scope="col">Journal hash</th>
                </tr>
              </thead>
              <tbody>
                {days.data.map((day) => (
                  <DayRow key={day.businessDate} day={day} />
                ))}
              </tbody>
            </table>
          </div>
          {days.hasNextPage ? (
            <Button variant="secondary" loading={days.isFetchingNextPage} onClick={() => void days.fetchNextPage()}>
              Show more days
            </Button>
          ) : null}
          {days.isFetchNextPageError ? <Alert kind="error">{errorMessage(days.error)}</Alert> : null}
        </>
      )}
    </section>
  );
}

import { Alert } from '../../components/Alert';
import { Spinner } from '../../components/Spinner';
import { errorMessage } from '../../lib/api/apiError';
import { isAdminUser } from '../../lib/session/guards';
import { useSession } from '../../lib/session/SessionContext';
import { AdvanceBusinessDate } from './AdvanceBusinessDate';
import { useBusinessDate } from './ledgerApi';

const modeLabels = { calendar: 'Calendar (follows the UTC date)', manual: 'Manual (moved by an admin)' } as const;

/** The open business date, its mode and the last closed date; in manual mode an admin may advance it. */
export function BusinessDatePanel() {
  const { user } = useSession();
  const date = useBusinessDate();
  return (
    <section className="audit-card ledger-business-date" aria-labelledby="business-date-heading">
      <h2 id="business-date-heading">Business date</h2>
      {date.isPending ? (
        <Spinner label="Loading the business date" />
      ) : date.isError ? (
        <Alert kind="error">{errorMessage(date.error)}</Alert>
      ) : (
        <>
          <dl className="ledger-facts">
            <div>
              <dt>Business date</dt>
              <dd data-testid="business-date">{date.data.businessDate}</dd>
            </div>
            <div>
              <dt>Mode</dt>
              <dd>{modeLabels[date.data.mode]}</dd>
            </div>
            <div>
              <dt>Last closed</dt>
              <dd>{date.data.lastClosedDate ?? 'No day closed yet'}</dd>
            </div>
          </dl>
          {date.data.mode === 'manual' && isAdminUser(user) ? <AdvanceBusinessDate businessDate={date.data.businessDate} /> : null}
        </>
      )}
    </section>
  );
}

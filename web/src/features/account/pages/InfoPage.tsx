import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/Alert';
import { bankDetails } from '../../../components/bankDetails';
import { Button } from '../../../components/Button';
import { formatMoney } from '../../../components/money';
import { LoadingBlock } from '../../../components/Spinner';
import { useSession } from '../../../lib/session/SessionContext';
import { useBank } from '../../../lib/api/queries/useBank';
import { ProfileSummary } from '../components/ProfileSummary';
import { PageTitle } from '../components/PageTitle';
import { useFlashMessage } from '../../../lib/router/useFlashMessage';
import { copyText } from '../model/copyText';
import { DetailList, personalDetails } from '../../../components/DetailList';

export const ACCOUNT_NUMBER_COPIED = 'Account number copied to clipboard';

/** /account/info: the customer's details; copy the account number; link to settings. */
export function InfoPage() {
  const { user } = useSession();
  const bank = useBank();
  const [flash, setFlash] = useFlashMessage();
  const [copyResult, setCopyResult] = useState<{ kind: 'success' | 'error'; message: string } | null>(null);
  if (!user) return <LoadingBlock />;

  const copy = async () => {
    const number = user.account.number;
    if (await copyText(number)) {
      // Spec §8: a browser alert; the message also stays on the page for screen readers and after the alert is gone.
      setCopyResult({ kind: 'success', message: ACCOUNT_NUMBER_COPIED });
      window.alert(ACCOUNT_NUMBER_COPIED);
    } else {
      setCopyResult({ kind: 'error', message: `Your browser did not let us copy it. Your account number is ${number}: select it to copy it yourself.` });
    }
  };

  return (
    <div className="portal-page">
      <PageTitle actions={<Link to="/account/settings" className="btn btn-secondary">Settings</Link>}>Account details</PageTitle>
      {flash ? (
        <Alert kind="success" onDismiss={() => setFlash(null)}>
          {flash}
        </Alert>
      ) : null}
      {copyResult ? (
        <Alert kind={copyResult.kind} onDismiss={() => setCopyResult(null)}>
          {copyResult.message}
        </Alert>
      ) : null}
      <ProfileSummary user={user} />

      <section className="portal-card" aria-labelledby="account-heading">
        <h2 id="account-heading">Your account</h2>
        <dl className="detail-list">
          <div>
            <dt>Bank</dt>
            <dd>{bankDetails.name}</dd>
          </div>
          <div>
            <dt>Account number</dt>
            <dd className="account-number-row">
              <span className="mono" data-testid="account-number">
                {user.account.number}
              </span>
              <Button variant="secondary" onClick={() => void copy()} aria-label="Copy account number">
                Copy
              </Button>
            </dd>
          </div>
          <div>
            <dt>Routing number</dt>
            <dd>
              <RoutingNumber bank={bank} />
            </dd>
          </div>
          <div>
            <dt>Savings balance</dt>
            <dd>{formatMoney(user.account.savings)}</dd>
          </div>
          <div>
            <dt>Checking balance</dt>
            <dd>{formatMoney(user.account.checking)}</dd>
          </div>
        </dl>
      </section>

      <section className="portal-card" aria-labelledby="personal-heading">
        <h2 id="personal-heading">Personal details</h2>
        <DetailList className="detail-list" details={personalDetails(user)} />
        <Link to="/account/update-account" className="btn btn-primary">
          Edit profile
        </Link>
      </section>
    </div>
  );
}

/** The routing number as GET /bank answers it: loading, the number, or a retry when it could not be loaded. */
function RoutingNumber({ bank }: { bank: ReturnType<typeof useBank> }) {
  if (bank.data) return <span className="mono" data-testid="routing-number">{bank.data.routingNumber}</span>;
  if (bank.isError) {
    return (
      <span role="alert">
        Could not load the routing number.{' '}
        <Button variant="secondary" onClick={() => void bank.refetch()}>
          Try again
        </Button>
      </span>
    );
  }
  return <span aria-busy="true">Loading…</span>;
}

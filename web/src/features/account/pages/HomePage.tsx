import { Link } from 'react-router';
import { Alert } from '../../../components/Alert';
import { ButtonLink } from '../../../components/ButtonLink';
import { EmptyState } from '../../../components/EmptyState';
import { Icon } from '../../../components/Icon';
import { formatMoney } from '../../../components/money';
import { LoadingBlock } from '../../../components/Spinner';
import { errorMessage } from '../../../lib/api/apiError';
import { useRecentTransactions } from '../../../lib/api/queries/useRecentTransactions';
import { useReloadUser } from '../../../lib/api/queries/useReloadUser';
import { useSession } from '../../../lib/session/SessionContext';
import { PageTitle } from '../components/PageTitle';
import { TransactionList } from '../components/TransactionList';
import { SavingsInterest } from '../../interest/SavingsInterest';

/** /account/home: both balances, shortcuts, the five most recent transactions. Reloads the user on entry. */
export function HomePage() {
  const { user } = useSession();
  useReloadUser();
  const recent = useRecentTransactions();
  if (!user) return <LoadingBlock />;

  return (
    <div className="portal-page">
      <PageTitle lead={`Account number ${user.account.number}`}>Overview</PageTitle>
      {user.verificationStatus === 'awaiting' ? (
        <Alert kind="info">
          Your account is not verified yet. <Link to="/account-verification">Complete your account setup</Link>.
        </Alert>
      ) : null}
      {user.verificationStatus === 'pending' ? <Alert kind="info">Your documents are being reviewed.</Alert> : null}
      {user.verificationStatus === 'failed' ? (
        <Alert kind="error">
          We could not verify your identity. <Link to="/account/support">Contact us</Link>.
        </Alert>
      ) : null}

      <section aria-labelledby="balances-heading" className="portal-section">
        <h2 id="balances-heading" className="visually-hidden">
          Balances
        </h2>
        <div className="balance-grid">
          <article className="balance-card balance-card-savings">
            <span className="balance-label">
              <Icon name="piggy" size={20} /> Savings
            </span>
            <span className="balance-amount" data-testid="savings-balance">
              {formatMoney(user.account.savings)}
            </span>
            <SavingsInterest />
          </article>
          <article className="balance-card balance-card-checking">
            <span className="balance-label">
              <Icon name="wallet" size={20} /> Checking
            </span>
            <span className="balance-amount" data-testid="checking-balance">
              {formatMoney(user.account.checking)}
            </span>
          </article>
        </div>
        <div className="shortcut-row">
          <ButtonLink to="/account/transfer">
            <Icon name="exchange" size={20} /> Transfer money
          </ButtonLink>
          <ButtonLink to="/account/info" variant="secondary">
            <Icon name="wallet" size={20} /> Account details
          </ButtonLink>
        </div>
      </section>

      <section aria-labelledby="recent-heading" className="portal-card">
        <div className="portal-card-head">
          <h2 id="recent-heading">Recent transactions</h2>
          <Link to="/account/transactions" className="portal-card-link">
            View All
          </Link>
        </div>
        {recent.isPending ? <LoadingBlock label="Loading transactions…" /> : null}
        {recent.isError ? <Alert kind="error">{errorMessage(recent.error)}</Alert> : null}
        {recent.data && recent.data.length === 0 ? <EmptyState title="No transactions yet">Money you send or receive shows here.</EmptyState> : null}
        {recent.data && recent.data.length > 0 ? <TransactionList transactions={recent.data.slice(0, 5)} label="Recent transactions" /> : null}
      </section>
    </div>
  );
}

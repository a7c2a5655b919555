import { Link } from 'react-router';
import { Alert } from '../../../components/Alert';
import { Icon, type IconName } from '../../../components/Icon';
import { ApiError } from '../../../lib/api/apiError';
import { QUEUE_DASHBOARD_URL, useOpenQueueDashboard } from '../../../lib/api/queries/useOpenQueueDashboard';
import { useSession } from '../../../lib/session/SessionContext';
import { AdminPageTitle } from '../components/AdminPageTitle';

const tiles: readonly { id: string; to: string; title: string; text: string; icon: IconName }[] = [
  { id: 'users', to: '/admin/users', title: 'Users', text: 'Find customers, check verification, edit details and balances.', icon: 'users' },
  { id: 'add-transaction', to: '/admin/transactions/add-transactions', title: 'Add Transaction', text: "Post a credit or debit to a customer's account.", icon: 'exchange' },
  { id: 'contacts', to: '/admin/contacts', title: 'Contacts', text: 'Messages sent through the contact form.', icon: 'mail' },
  { id: 'beneficiaries', to: '/admin/beneficiaries', title: 'Beneficiaries', text: 'The payee directory customers can send money to.', icon: 'briefcase' },
  { id: 'rates', to: '/admin/rates', title: 'Rates', text: 'Interest rates in force and scheduled changes.', icon: 'percent' },
];

/**
 * /admin/dashboard: where the admin's work starts: links to Users, Add Transaction, Contacts and Beneficiaries (the
 * spec), each named by its title alone, with its description attached as a description. The queue dashboard link
 * first opens a dashboard session (a short-lived cookie), then goes there.
 */
export function DashboardPage() {
  const { user } = useSession();
  const queues = useOpenQueueDashboard();
  return (
    <div className="admin-page">
      <AdminPageTitle lead={`Signed in as ${user?.email ?? ''}`}>Dashboard</AdminPageTitle>
      <ul className="admin-tiles">
        {tiles.map((tile) => (
          <li key={tile.to} className="admin-tile">
            <span className="admin-tile-icon" aria-hidden="true">
              <Icon name={tile.icon} />
            </span>
            {/* The link's text is the title (what a voice-control user says); the whole tile is its target (CSS). */}
            <Link to={tile.to} className="admin-tile-title" aria-describedby={`admin-tile-${tile.id}`}>
              {tile.title}
            </Link>
            <span className="admin-tile-text" id={`admin-tile-${tile.id}`}>
              {tile.text}
            </span>
          </li>
        ))}
      </ul>
      <section className="admin-card" aria-labelledby="operations-heading">
        <h2 id="operations-heading">Operations</h2>
        <ul className="admin-link-list">
          <li>
            <a
              href={QUEUE_DASHBOARD_URL}
              aria-busy={queues.isPending}
              onClick={(event) => {
                event.preventDefault();
                if (!queues.isPending) queues.mutate();
              }}
            >
              Queue dashboard
            </a>{' '}
            <span className="admin-muted">— background jobs (transfers, settlement, checks)</span>
            {queues.isError ? (
              <Alert kind="error">
                Could not open the queue dashboard: {queues.error instanceof ApiError ? queues.error.message : 'An error occurred'}
              </Alert>
            ) : null}
          </li>
          <li>
            <Link to="/audit">Audit</Link> <span className="admin-muted">— every customer's history and the staff log</span>
          </li>
          <li>
            <Link to="/audit/ledger">Ledger</Link> <span className="admin-muted">— trial balance, accounts, reconciliation, day closes, business date</span>
          </li>
          <li>
            <Link to="/audit/ach">ACH</Link> <span className="admin-muted">— NACHA files of external transfers, build a file now, upload returns and incoming files</span>
          </li>
        </ul>
      </section>
    </div>
  );
}

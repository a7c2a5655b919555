import { Link } from 'react-router';
import { Icon, type IconName } from '../../../components/Icon';
import { useSession } from '../../../lib/session/SessionContext';
import { AdminPageTitle } from '../components/AdminPageTitle';

const QUEUE_DASHBOARD_URL = `${(import.meta.env.VITE_API_URL as string | undefined)?.replace(/\/$/, '') ?? '/api'}/admin/queues`;

const tiles: readonly { id: string; to: string; title: string; text: string; icon: IconName }[] = [
  { id: 'users', to: '/admin/users', title: 'Users', text: 'Find customers, check verification, edit details and balances.', icon: 'users' },
  { id: 'add-transaction', to: '/admin/transactions/add-transactions', title: 'Add Transaction', text: "Post a credit or debit to a customer's account.", icon: 'exchange' },
  { id: 'contacts', to: '/admin/contacts', title: 'Contacts', text: 'Messages sent through the contact form.', icon: 'mail' },
  { id: 'beneficiaries', to: '/admin/beneficiaries', title: 'Beneficiaries', text: 'The payee directory customers can send money to.', icon: 'briefcase' },
];

/**
 * /admin/dashboard: where the admin's work starts: links to Users, Add Transaction, Contacts and Beneficiaries (the
 * spec), each named by its title alone, with its description attached as a description.
 */
export function DashboardPage() {
  const { user } = useSession();
  return (
    <div className="admin-page">
      <AdminPageTitle lead={`Signed in as ${user?.email ?? ''}`}>Dashboard</AdminPageTitle>
      <ul className="admin-tiles">
        {tiles.map((tile) => (
          <li key={tile.to}>
            <Link to={tile.to} className="admin-tile" aria-label={tile.title} aria-describedby={`admin-tile-${tile.id}`}>
              <span className="admin-tile-icon" aria-hidden="true">
                <Icon name={tile.icon} />
              </span>
              <span className="admin-tile-title">{tile.title}</span>
              <span className="admin-tile-text" id={`admin-tile-${tile.id}`}>
                {tile.text}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <section className="admin-card" aria-labelledby="operations-heading">
        <h2 id="operations-heading">Operations</h2>
        <ul className="admin-link-list">
          <li>
            <a href={QUEUE_DASHBOARD_URL}>Queue dashboard</a> <span className="admin-muted">— background jobs (transfers, settlement, checks)</span>
          </li>
          <li>
            <Link to="/audit">Audit</Link> <span className="admin-muted">— every customer's history and the staff log</span>
          </li>
        </ul>
      </section>
    </div>
  );
}

import { useId, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { Icon, type IconName } from '../../../components/Icon';
import { Logo } from '../../../components/Logo';
import { useSignOut } from '../../../lib/api/queries/useSignOut';
import { useSession } from '../../../lib/session/SessionContext';
import '../admin.css';

const links: readonly { to: string; label: string; icon: IconName; end?: boolean }[] = [
  { to: '/admin/dashboard', label: 'Dashboard', icon: 'home' },
  { to: '/admin/users', label: 'Users', icon: 'users' },
  { to: '/admin/transactions/add-transactions', label: 'Add Transaction', icon: 'exchange' },
  { to: '/admin/contacts', label: 'Contacts', icon: 'mail' },
  { to: '/admin/beneficiaries', label: 'Beneficiaries', icon: 'briefcase' },
  { to: '/admin/rates', label: 'Rates', icon: 'percent' },
  { to: '/audit/ledger', label: 'Ledger', icon: 'chart' },
  { to: '/audit/ach', label: 'ACH', icon: 'bank' },
];

/**
 * The admin area's frame: the navigation, who is signed in, Logout; the page below (at most 70rem wide). On the
 * dashboard, whose own links are the same screens, the navigation holds only the dashboard link.
 */
export function AdminLayout() {
  const { user } = useSession();
  const onDashboard = useLocation().pathname.replace(/\/$/, '') === '/admin/dashboard';
  const shown = onDashboard ? links.filter((link) => link.to === '/admin/dashboard') : links;
  const signOut = useSignOut('/admin/login');
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const navId = useId();
  const close = () => setOpen(false);

  return (
    <div className="admin-shell">
      <header className="admin-header">
        <div className="admin-header-row">
          <Link to="/admin/dashboard" className="admin-brand" onClick={close}>
            <Logo inverted />
            <span className="admin-brand-tag">Admin</span>
            <span className="visually-hidden"> dashboard</span>
          </Link>
          <button type="button" className="admin-menu-button" aria-expanded={open} aria-controls={navId} onClick={() => setOpen((value) => !value)}>
            <Icon name={open ? 'close' : 'menu'} />
            <span className="visually-hidden">{open ? 'Close menu' : 'Open menu'}</span>
          </button>
        </div>
        <nav id={navId} aria-label="Admin" className={`admin-nav${open ? ' admin-nav-open' : ''}`}>
          <ul>
            {shown.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} onClick={close}>
                  <Icon name={link.icon} size={18} />
                  <span>{link.label}</span>
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="admin-user">
            <span className="admin-user-email">{user?.email}</span>
            <NavLink to="/admin/security" className="admin-security-link" onClick={close}>
              <Icon name="shield" size={18} />
              <span>Security</span>
            </NavLink>
            <button
              type="button"
              className="admin-logout"
              disabled={signingOut}
              onClick={() => {
                setSigningOut(true);
                void signOut();
              }}
            >
              <Icon name="unlock" size={18} />
              <span>{signingOut ? 'Logging out…' : 'Logout'}</span>
            </button>
          </div>
        </nav>
      </header>
      <main className="admin-main" id="admin-content">
        <Outlet />
      </main>
    </div>
  );
}

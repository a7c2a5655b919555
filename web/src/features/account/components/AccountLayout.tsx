import { useId, useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { Icon, type IconName } from '../../../components/Icon';
import { Logo } from '../../../components/Logo';
import { useSession } from '../../../lib/session/SessionContext';
import { useSignOut } from '../../../lib/api/queries/useSignOut';
import { EmailVerificationBanner } from '../../notifications/EmailVerificationBanner';
import { NewSignInNotices } from '../../secondFactor/NewSignInNotices';
import { Avatar } from './Avatar';
import '../account.css';

const links: readonly { to: string; label: string; icon: IconName }[] = [
  { to: '/account/home', label: 'Home', icon: 'home' },
  { to: '/account/transactions', label: 'Transactions', icon: 'chart' },
  { to: '/account/statements', label: 'Statements', icon: 'document' },
  { to: '/account/interest', label: 'Interest', icon: 'percent' },
  { to: '/account/cards', label: 'Cards', icon: 'card' },
  { to: '/account/transfer', label: 'Transfer', icon: 'exchange' },
  { to: '/account/standing-orders', label: 'Standing orders', icon: 'clock' },
  { to: '/account/info', label: 'Account', icon: 'wallet' },
  { to: '/account/support', label: 'Contact', icon: 'support' },
];

/**
 * The customer area's frame: a sidebar (Home, Transactions, Statements, Cards, Transfer, Standing orders, Account, Contact, Logout), a header
 * with the welcome line and the profile picture, and the page (at most 70rem wide). Below 900px the sidebar folds
 * into a top bar with a menu button.
 */
export function AccountLayout() {
  const { user } = useSession();
  const signOut = useSignOut();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const navId = useId();
  const close = () => setMenuOpen(false);

  return (
    <div className="portal">
      <a className="skip-link" href="#portal-content">
        Skip to content
      </a>
      <header className="portal-header">
        <Link to="/account/home" className="portal-brand portal-brand-top" aria-label="Summit Bank, account home" onClick={close}>
          <Logo />
        </Link>
        <p className="portal-welcome">
          Welcome, <strong>{user?.firstName}</strong>
        </p>
        <Link to="/account/info" className="portal-avatar-link" onClick={close}>
          {user ? <Avatar user={user} /> : null}
          <span className="visually-hidden">Your account details</span>
        </Link>
        <button
          type="button"
          className="portal-menu-button"
          aria-expanded={menuOpen}
          aria-controls={navId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <Icon name={menuOpen ? 'close' : 'menu'} />
          <span className="visually-hidden">{menuOpen ? 'Close menu' : 'Open menu'}</span>
        </button>
      </header>
      <nav id={navId} className={`portal-sidebar${menuOpen ? ' portal-sidebar-open' : ''}`} aria-label="Customer area">
        <Link to="/account/home" className="portal-brand portal-brand-side" aria-label="Summit Bank, account home">
          <Logo inverted />
        </Link>
        <ul className="portal-nav">
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} className="portal-nav-link" onClick={close}>
                <Icon name={link.icon} size={20} />
                <span>{link.label}</span>
              </NavLink>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="portal-nav-link portal-logout"
          disabled={signingOut}
          onClick={() => {
            setSigningOut(true);
            void signOut();
          }}
        >
          <Icon name="unlock" size={20} />
          <span>{signingOut ? 'Logging out…' : 'Logout'}</span>
        </button>
      </nav>
      <main id="portal-content" className="portal-content" tabIndex={-1}>
        <EmailVerificationBanner />
        <NewSignInNotices />
        <Outlet />
      </main>
    </div>
  );
}

import { useState } from 'react';
import { Link } from 'react-router';
import { Icon, type IconName } from '../../../components/Icon';
import { useSignOut } from '../../../lib/api/queries/useSignOut';
import { PageTitle } from '../components/PageTitle';

const entries: readonly { to: string; label: string; description: string; icon: IconName }[] = [
  { to: '/account/update-account', label: 'Edit Profile', description: 'E-mail, phone and address', icon: 'edit' },
  { to: '/account/update-password', label: 'Update Password', description: 'Change the password you sign in with', icon: 'key' },
  { to: '/account/notifications', label: 'Notifications', description: 'The e-mails we send you about your money and your security', icon: 'mail' },
  { to: '/account/security', label: 'Security', description: 'Two-step sign-in and where you are signed in', icon: 'shield' },
  { to: '/account/beneficiaries', label: 'Beneficiaries', description: 'People and companies you pay', icon: 'users' },
  { to: '/account/support', label: 'Contact', description: 'Phone, e-mail and the contact form', icon: 'support' },
];

/** /account/settings: links to the profile screens, and Logout. */
export function SettingsPage() {
  const signOut = useSignOut();
  const [signingOut, setSigningOut] = useState(false);
  return (
    <div className="portal-page">
      <PageTitle>Settings</PageTitle>
      <ul className="settings-list">
        {entries.map((entry) => (
          <li key={entry.to}>
            <Link to={entry.to} className="settings-entry">
              <Icon name={entry.icon} />
              <span className="settings-text">
                <span className="settings-label">{entry.label}</span>
                <span className="settings-description">{entry.description}</span>
              </span>
              <Icon name="arrowRight" size={20} />
            </Link>
          </li>
        ))}
        <li>
          <button
            type="button"
            className="settings-entry settings-logout"
            disabled={signingOut}
            onClick={() => {
              setSigningOut(true);
              void signOut();
            }}
          >
            <Icon name="unlock" />
            <span className="settings-text">
              <span className="settings-label">{signingOut ? 'Logging out…' : 'Logout'}</span>
              <span className="settings-description">Sign out of this browser</span>
            </span>
          </button>
        </li>
      </ul>
    </div>
  );
}

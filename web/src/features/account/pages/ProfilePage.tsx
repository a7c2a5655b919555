import { Link } from 'react-router';
import { formatDate } from '../../../components/money';
import { LoadingBlock } from '../../../components/Spinner';
import { useSession } from '../../../lib/session/SessionContext';
import { ProfileSummary } from '../components/ProfileSummary';
import { PageTitle } from '../components/PageTitle';
import { DetailList } from '../../../components/DetailList';

/** /account/profile: who the bank knows you as, with the ways to change it. */
export function ProfilePage() {
  const { user } = useSession();
  if (!user) return <LoadingBlock />;
  return (
    <div className="portal-page">
      <PageTitle>Profile</PageTitle>
      <ProfileSummary user={user}>
        <p className="portal-muted">Customer since {formatDate(user.createdAt)}</p>
      </ProfileSummary>
      <section className="portal-card">
        <h2>Contact details</h2>
        <DetailList
          className="detail-list"
          details={[
            { label: 'E-mail', value: user.email },
            { label: 'Phone', value: user.phone },
            { label: 'Address', value: `${user.location.address}, ${user.location.state}` },
          ]}
        />
      </section>
      <nav className="portal-card" aria-label="Profile">
        <ul className="link-list">
          <li>
            <Link to="/account/info">Account details</Link>
          </li>
          <li>
            <Link to="/account/update-account">Edit profile</Link>
          </li>
          <li>
            <Link to="/account/update-password">Update password</Link>
          </li>
          {user.verificationStatus === 'awaiting' || user.verificationStatus === 'failed' ? (
            <li>
              <Link to="/account-verification">Complete your account setup</Link>
            </li>
          ) : null}
          <li>
            <Link to="/account/settings">Settings</Link>
          </li>
        </ul>
      </nav>
    </div>
  );
}

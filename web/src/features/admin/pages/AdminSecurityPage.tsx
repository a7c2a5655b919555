import { SecondFactorSettings } from '../../secondFactor/SecondFactorSettings';
import { SessionsList } from '../../secondFactor/SessionsList';
import { AdminPageTitle } from '../components/AdminPageTitle';

/** /admin/security: the admin's own two-step sign-in (required) and sessions. */
export function AdminSecurityPage() {
  return (
    <div className="admin-page">
      <AdminPageTitle>Security</AdminPageTitle>
      <SecondFactorSettings />
      <SessionsList />
    </div>
  );
}

import { SecondFactorSettings } from '../../secondFactor/SecondFactorSettings';
import { SessionsList } from '../../secondFactor/SessionsList';
import { PageTitle } from '../components/PageTitle';

/** /account/security: two-step sign-in and the sessions of the customer. */
export function SecurityPage() {
  return (
    <div className="portal-page">
      <PageTitle lead="Two-step sign-in and the places you are signed in.">Security</PageTitle>
      <SecondFactorSettings />
      <SessionsList />
    </div>
  );
}

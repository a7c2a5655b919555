import { Link } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { PageTitle } from '../components/PageTitle';

/**
 * /account/beneficiaries: as the spec has it, only 'You have no beneficiaries yet.' Customers keep no payees of their
 * own; the bank's payee directory (GET /api/beneficiaries) serves the recipient look-up on the transfer page.
 */
export function BeneficiariesPage() {
  return (
    <div className="portal-page">
      <PageTitle lead="Payees you save will be listed here.">Beneficiaries</PageTitle>
      <section className="portal-card">
        <EmptyState title="You have no beneficiaries yet." />
        <p className="portal-muted">
          To pay someone, enter their account number on the <Link to="/account/transfer">transfer page</Link>.
        </p>
      </section>
    </div>
  );
}

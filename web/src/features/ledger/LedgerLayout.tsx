import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { LoadingBlock } from '../../components/Spinner';
import { BusinessDatePanel } from './BusinessDatePanel';
import { LEDGER_PATH } from './ledgerPaths';
import './ledger.css';

const sections = [
  { to: LEDGER_PATH, label: 'Trial balance', end: true },
  { to: `${LEDGER_PATH}/accounts`, label: 'Accounts' },
  { to: `${LEDGER_PATH}/reconciliation`, label: 'Reconciliation' },
  { to: `${LEDGER_PATH}/days`, label: 'Day closes' },
] as const;

/** /audit/ledger/*: the business date, the ledger's sections, and the section shown. */
export function LedgerLayout() {
  return (
    <section className="audit-page ledger-page">
      <PageTitle>Ledger</PageTitle>
      <h1>Ledger</h1>
      <BusinessDatePanel />
      <nav aria-label="Ledger" className="ledger-nav">
        {sections.map((section) => (
          <NavLink key={section.to} to={section.to} end={'end' in section ? section.end : false}>
            {section.label}
          </NavLink>
        ))}
      </nav>
      <Suspense fallback={<LoadingBlock />}>
        <Outlet />
      </Suspense>
    </section>
  );
}

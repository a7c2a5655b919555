import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/routing/lazyPage';

/**
 * The ledger's screens, mounted under /audit (auditors and admins, behind RequireAuditor): the trial balance, the
 * chart of accounts and each account's entries, the reconciliation and the day closes. They load on first use.
 */
export const ledgerRoutes: RouteObject[] = [
  {
    path: 'ledger',
    Component: lazyPage(() => import('./LedgerLayout'), 'LedgerLayout'),
    children: [
      { index: true, Component: lazyPage(() => import('./TrialBalancePage'), 'TrialBalancePage') },
      { path: 'accounts', Component: lazyPage(() => import('./ChartOfAccountsPage'), 'ChartOfAccountsPage') },
      { path: 'accounts/:key', Component: lazyPage(() => import('./AccountEntriesPage'), 'AccountEntriesPage') },
      { path: 'reconciliation', Component: lazyPage(() => import('./ReconciliationPage'), 'ReconciliationPage') },
      { path: 'days', Component: lazyPage(() => import('./DayClosesPage'), 'DayClosesPage') },
    ],
  },
];

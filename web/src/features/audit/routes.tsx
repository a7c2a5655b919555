import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/routing/lazyPage';
import { achRoutes } from '../ach/routes';
import { ledgerRoutes } from '../ledger/routes';

/**
 * The auditors' screens (role auditor or admin): docs/audit.md, the ledger's (features/ledger) and the ACH files' (features/ach). The frame (with its guard, RequireAuditor), the
 * screens and the balance chart load on first use, so nobody else downloads them.
 */
export const auditRoutes: RouteObject[] = [
  {
    path: '/audit',
    Component: lazyPage(() => import('./AuditArea'), 'AuditArea'),
    children: [
      { index: true, Component: lazyPage(() => import('./CustomerSearchPage'), 'CustomerSearchPage') },
      { path: 'users/:id', Component: lazyPage(() => import('./CustomerAuditPage'), 'CustomerAuditPage') },
      { path: 'log', Component: lazyPage(() => import('./StaffLogPage'), 'StaffLogPage') },
      { path: 'verify', Component: lazyPage(() => import('./VerifyPage'), 'VerifyPage') },
      { path: 'security', Component: lazyPage(() => import('./AuditSecurityPage'), 'AuditSecurityPage') },
      ...ledgerRoutes,
      ...achRoutes,
    ],
  },
];

import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/routing/lazyPage';

/**
 * The auditors' screens (role auditor or admin): docs/audit.md. The frame (with its guard, RequireAuditor), the
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
    ],
  },
];

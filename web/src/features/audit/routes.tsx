import type { RouteObject } from 'react-router';
import { AuditLayout, RequireAuditor } from './AuditLayout';
import { CustomerAuditPage } from './CustomerAuditPage';
import { CustomerSearchPage } from './CustomerSearchPage';
import { StaffLogPage } from './StaffLogPage';
import { VerifyPage } from './VerifyPage';

/** The auditors' screens (role auditor or admin): docs/audit.md. */
export const auditRoutes: RouteObject[] = [
  {
    path: '/audit',
    element: (
      <RequireAuditor>
        <AuditLayout />
      </RequireAuditor>
    ),
    children: [
      { index: true, element: <CustomerSearchPage /> },
      { path: 'users/:id', element: <CustomerAuditPage /> },
      { path: 'log', element: <StaffLogPage /> },
      { path: 'verify', element: <VerifyPage /> },
    ],
  },
];

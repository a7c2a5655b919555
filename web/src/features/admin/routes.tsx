import { Suspense } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { LoadingBlock } from '../../components/Spinner';
import { RequireAdmin } from '../../lib/session/guards';
import { lazyPage } from '../../lib/routing/lazyPage';

function AdminLoading() {
  return (
    <div className="admin-page-loading">
      <LoadingBlock />
    </div>
  );
}

/**
 * The admin area. /admin/login is open; every other screen is for admins only (RequireAdmin, which comes with the
 * app). The layout and every screen load on first use, so customers and visitors never download them.
 */
export const adminRoutes: RouteObject[] = [
  { path: '/admin/login', Component: lazyPage(() => import('./pages/AdminLoginPage'), 'AdminLoginPage') },
  { path: '/admin', element: <Navigate to="/admin/dashboard" replace /> },
  {
    element: (
      <RequireAdmin>
        <Suspense fallback={<AdminLoading />}>
          <Outlet />
        </Suspense>
      </RequireAdmin>
    ),
    children: [
      {
        Component: lazyPage(() => import('./components/AdminLayout'), 'AdminLayout'),
        children: [
          { path: '/admin/dashboard', Component: lazyPage(() => import('./pages/DashboardPage'), 'DashboardPage') },
          { path: '/admin/users', Component: lazyPage(() => import('./pages/UsersPage'), 'UsersPage') },
          { path: '/admin/users/:id', Component: lazyPage(() => import('./pages/UserDetailPage'), 'UserDetailPage') },
          { path: '/admin/users/account/:id', Component: lazyPage(() => import('./pages/EditBalancesPage'), 'EditBalancesPage') },
          { path: '/admin/users/edit/:id', Component: lazyPage(() => import('./pages/EditUserPage'), 'EditUserPage') },
          { path: '/admin/contacts', Component: lazyPage(() => import('./pages/ContactsPage'), 'ContactsPage') },
          { path: '/admin/transactions/add-transactions', Component: lazyPage(() => import('./pages/AddTransactionPage'), 'AddTransactionPage') },
          { path: '/admin/transactions/:id', Component: lazyPage(() => import('./pages/UserTransactionsPage'), 'UserTransactionsPage') },
          { path: '/admin/beneficiaries', Component: lazyPage(() => import('./pages/AdminBeneficiariesPage'), 'AdminBeneficiariesPage') },
          { path: '/admin/rates', Component: lazyPage(() => import('../interest/RatesPage'), 'RatesPage') },
          { path: '/admin/security', Component: lazyPage(() => import('./pages/AdminSecurityPage'), 'AdminSecurityPage') },
        ],
      },
    ],
  },
];

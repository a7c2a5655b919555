import { Navigate, type RouteObject } from 'react-router';
import { LoadingBlock } from '../../components/Spinner';
import { RequireAdmin } from '../../lib/session/guards';
import { AdminLayout } from './components/AdminLayout';
import { AdminLoginPage } from './pages/AdminLoginPage';

function AdminLoading() {
  return (
    <div className="admin-page-loading">
      <LoadingBlock />
    </div>
  );
}

/**
 * The admin area. /admin/login is open; every other screen is for admins only (RequireAdmin) and is loaded on
 * first use, so customers never download it.
 */
export const adminRoutes: RouteObject[] = [
  { path: '/admin/login', element: <AdminLoginPage /> },
  { path: '/admin', element: <Navigate to="/admin/dashboard" replace /> },
  {
    element: (
      <RequireAdmin>
        <AdminLayout />
      </RequireAdmin>
    ),
    HydrateFallback: AdminLoading,
    children: [
      { path: '/admin/dashboard', lazy: () => import('./pages/DashboardPage').then((page) => ({ Component: page.DashboardPage })) },
      { path: '/admin/users', lazy: () => import('./pages/UsersPage').then((page) => ({ Component: page.UsersPage })) },
      { path: '/admin/users/:id', lazy: () => import('./pages/UserDetailPage').then((page) => ({ Component: page.UserDetailPage })) },
      { path: '/admin/users/account/:id', lazy: () => import('./pages/EditBalancesPage').then((page) => ({ Component: page.EditBalancesPage })) },
      { path: '/admin/users/edit/:id', lazy: () => import('./pages/EditUserPage').then((page) => ({ Component: page.EditUserPage })) },
      { path: '/admin/contacts', lazy: () => import('./pages/ContactsPage').then((page) => ({ Component: page.ContactsPage })) },
      {
        path: '/admin/transactions/add-transactions',
        lazy: () => import('./pages/AddTransactionPage').then((page) => ({ Component: page.AddTransactionPage })),
      },
      { path: '/admin/transactions/:id', lazy: () => import('./pages/UserTransactionsPage').then((page) => ({ Component: page.UserTransactionsPage })) },
      { path: '/admin/beneficiaries', lazy: () => import('./pages/AdminBeneficiariesPage').then((page) => ({ Component: page.AdminBeneficiariesPage })) },
    ],
  },
];

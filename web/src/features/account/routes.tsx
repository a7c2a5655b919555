import { Suspense } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { LoadingBlock } from '../../components/Spinner';
import { RequireAuth } from '../../lib/session/guards';
import { lazyPage } from '../../lib/routing/lazyPage';

/**
 * The customer area. Each screen is listed by its full path under a pathless, guarded layout, so the public
 * pages /account/savings and /account/checking (publicRoutes) stay public. The guard comes with the app; the
 * layout and every screen load on first use, so a visitor of the public site downloads none of them (docs/web.md).
 */
export const accountRoutes: RouteObject[] = [
  {
    element: (
      <RequireAuth>
        <Suspense fallback={<LoadingBlock />}>
          <Outlet />
        </Suspense>
      </RequireAuth>
    ),
    children: [
      {
        Component: lazyPage(() => import('./components/AccountLayout'), 'AccountLayout'),
        children: [
          { path: '/account/home', Component: lazyPage(() => import('./pages/HomePage'), 'HomePage') },
          { path: '/account/transactions', Component: lazyPage(() => import('./pages/TransactionsPage'), 'TransactionsPage') },
          { path: '/account/interest', Component: lazyPage(() => import('../interest/InterestPage'), 'InterestPage') },
          { path: '/account/statements', Component: lazyPage(() => import('./pages/StatementsPage'), 'StatementsPage') },
          { path: '/account/support', Component: lazyPage(() => import('./pages/SupportPage'), 'SupportPage') },
          { path: '/account/cards', Component: lazyPage(() => import('./pages/CardsPage'), 'CardsPage') },
          { path: '/account/profile', Component: lazyPage(() => import('./pages/ProfilePage'), 'ProfilePage') },
          { path: '/account/transfer', Component: lazyPage(() => import('./pages/TransferPage'), 'TransferPage') },
          { path: '/account/standing-orders', Component: lazyPage(() => import('./pages/StandingOrdersPage'), 'StandingOrdersPage') },
          { path: '/account/info', Component: lazyPage(() => import('./pages/InfoPage'), 'InfoPage') },
          { path: '/account/settings', Component: lazyPage(() => import('./pages/SettingsPage'), 'SettingsPage') },
          { path: '/account/notifications', Component: lazyPage(() => import('./pages/NotificationsPage'), 'NotificationsPage') },
          { path: '/account/security', Component: lazyPage(() => import('./pages/SecurityPage'), 'SecurityPage') },
          { path: '/account/update-account', Component: lazyPage(() => import('./pages/UpdateAccountPage'), 'UpdateAccountPage') },
          { path: '/account/update-password', Component: lazyPage(() => import('./pages/UpdatePasswordPage'), 'UpdatePasswordPage') },
          { path: '/account/beneficiaries', Component: lazyPage(() => import('./pages/BeneficiariesPage'), 'BeneficiariesPage') },
        ],
      },
    ],
  },
  { path: '/account', element: <Navigate to="/account/home" replace /> },
];

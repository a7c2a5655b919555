import { Navigate, type RouteObject } from 'react-router';
import { RequireAuth } from '../../lib/session/guards';
import { AccountLayout } from './components/AccountLayout';
import { BeneficiariesPage } from './pages/BeneficiariesPage';
import { CardsPage } from './pages/CardsPage';
import { HomePage } from './pages/HomePage';
import { InfoPage } from './pages/InfoPage';
import { ProfilePage } from './pages/ProfilePage';
import { SettingsPage } from './pages/SettingsPage';
import { SupportPage } from './pages/SupportPage';
import { TransactionsPage } from './pages/TransactionsPage';
import { TransferPage } from './pages/TransferPage';
import { UpdateAccountPage } from './pages/UpdateAccountPage';
import { UpdatePasswordPage } from './pages/UpdatePasswordPage';

/**
 * The customer area. Each screen is listed by its full path under a pathless, guarded layout, so the public
 * pages /account/savings and /account/checking (publicRoutes) stay public.
 */
export const accountRoutes: RouteObject[] = [
  {
    element: (
      <RequireAuth>
        <AccountLayout />
      </RequireAuth>
    ),
    children: [
      { path: '/account/home', element: <HomePage /> },
      { path: '/account/transactions', element: <TransactionsPage /> },
      { path: '/account/support', element: <SupportPage /> },
      { path: '/account/cards', element: <CardsPage /> },
      { path: '/account/profile', element: <ProfilePage /> },
      { path: '/account/transfer', element: <TransferPage /> },
      { path: '/account/info', element: <InfoPage /> },
      { path: '/account/settings', element: <SettingsPage /> },
      { path: '/account/update-account', element: <UpdateAccountPage /> },
      { path: '/account/update-password', element: <UpdatePasswordPage /> },
      { path: '/account/beneficiaries', element: <BeneficiariesPage /> },
    ],
  },
  { path: '/account', element: <Navigate to="/account/home" replace /> },
];

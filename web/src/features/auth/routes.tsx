import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/routing/lazyPage';
import { PublicLayout } from '../public/layout/PublicLayout';

/** The sign-in and sign-up screens, in the public layout; each loads on first use (docs/web.md). */
export const authRoutes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { path: 'signin', Component: lazyPage(() => import('./pages/SignInPage'), 'SignInPage') },
      { path: 'signup', Component: lazyPage(() => import('./pages/SignUpPage'), 'SignUpPage') },
      { path: 'account-verification', Component: lazyPage(() => import('./pages/AccountVerificationPage'), 'AccountVerificationPage') },
      { path: 'forgot-password', Component: lazyPage(() => import('./pages/ForgotPasswordPage'), 'ForgotPasswordPage') },
      // The pages the bank's e-mails link to (APP_ORIGIN/reset-password?token=…, APP_ORIGIN/verify-email?token=…).
      { path: 'reset-password', Component: lazyPage(() => import('./pages/ResetPasswordPage'), 'ResetPasswordPage') },
      { path: 'verify-email', Component: lazyPage(() => import('./pages/VerifyEmailPage'), 'VerifyEmailPage') },
    ],
  },
];

import type { RouteObject } from 'react-router';
import { PublicLayout } from '../public/layout/PublicLayout';
import { AccountVerificationPage } from './pages/AccountVerificationPage';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage';
import { SignInPage } from './pages/SignInPage';
import { SignUpPage } from './pages/SignUpPage';

export const authRoutes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { path: 'signin', element: <SignInPage /> },
      { path: 'signup', element: <SignUpPage /> },
      { path: 'account-verification', element: <AccountVerificationPage /> },
      { path: 'forgot-password', element: <ForgotPasswordPage /> },
    ],
  },
];

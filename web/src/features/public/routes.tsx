import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/routing/lazyPage';
import { PublicLayout } from './layout/PublicLayout';

/**
 * The public site. The layout (header, footer) comes with the app's first script; each page is a chunk of its
 * own, so a visitor downloads the page they open and nothing of the others (the carousel library only with the
 * home page, form schemas only with the pages whose forms use them).
 */
export const publicRoutes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { index: true, Component: lazyPage(() => import('./pages/HomePage'), 'HomePage') },
      { path: 'account/savings', Component: lazyPage(() => import('./pages/SavingsAccountPage'), 'SavingsAccountPage') },
      { path: 'account/checking', Component: lazyPage(() => import('./pages/CheckingAccountPage'), 'CheckingAccountPage') },
      { path: 'cards/credit-card', Component: lazyPage(() => import('./pages/CreditCardPage'), 'CreditCardPage') },
      { path: 'loan/home-loan', Component: lazyPage(() => import('./pages/HomeLoanPage'), 'HomeLoanPage') },
      { path: 'loan/auto-loan', Component: lazyPage(() => import('./pages/AutoLoanPage'), 'AutoLoanPage') },
      { path: 'about', Component: lazyPage(() => import('./pages/AboutPage'), 'AboutPage') },
      { path: 'careers', Component: lazyPage(() => import('./pages/CareersPage'), 'CareersPage') },
      { path: 'contact', Component: lazyPage(() => import('./pages/ContactPage'), 'ContactPage') },
    ],
  },
];

/** Every path no feature claims: the Not Found page inside the public layout. */
export const notFoundRoute: RouteObject = {
  element: <PublicLayout />,
  children: [{ path: '*', Component: lazyPage(() => import('./pages/NotFoundPage'), 'NotFoundPage') }],
};

import type { RouteObject } from 'react-router';
import { PublicLayout } from './layout/PublicLayout';
import { AboutPage } from './pages/AboutPage';
import { AutoLoanPage } from './pages/AutoLoanPage';
import { CareersPage } from './pages/CareersPage';
import { CheckingAccountPage } from './pages/CheckingAccountPage';
import { ContactPage } from './pages/ContactPage';
import { CreditCardPage } from './pages/CreditCardPage';
import { HomeLoanPage } from './pages/HomeLoanPage';
import { HomePage } from './pages/HomePage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SavingsAccountPage } from './pages/SavingsAccountPage';

export const publicRoutes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'account/savings', element: <SavingsAccountPage /> },
      { path: 'account/checking', element: <CheckingAccountPage /> },
      { path: 'cards/credit-card', element: <CreditCardPage /> },
      { path: 'loan/home-loan', element: <HomeLoanPage /> },
      { path: 'loan/auto-loan', element: <AutoLoanPage /> },
      { path: 'about', element: <AboutPage /> },
      { path: 'careers', element: <CareersPage /> },
      { path: 'contact', element: <ContactPage /> },
    ],
  },
];

/** Every path no feature claims: the Not Found page inside the public layout. */
export const notFoundRoute: RouteObject = {
  element: <PublicLayout />,
  children: [{ path: '*', element: <NotFoundPage /> }],
};

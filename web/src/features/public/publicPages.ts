import { bankDetails } from '../../components/bankDetails';

/**
 * The pages a search engine may list: the sitemap, each page's own HTML (title, description, canonical link, Open
 * Graph, the preload of its code; written by web/build/publicPagesPlugin.ts), the runtime meta tags (usePageMeta),
 * `npm run bench:web` and the accessibility scan all read this list. Plain data, so the build can read it too.
 */
export interface PublicPage {
  /** The browser path. */
  readonly path: string;
  /** What the page's <PageTitle> says (the document title is "<title> · Summit Bank"); null: the home page's. */
  readonly title: string | null;
  /** The meta description: what a search result shows under the title (at most 160 characters). */
  readonly description: string;
  /**
   * The modules (under web/src) of the lazy routes that show the page, outermost first: the page's HTML preloads
   * their chunks, so they download with the app's script (web/build/publicPagesPlugin.ts).
   */
  readonly modules: readonly string[];
}

/** Where the site is published: canonical links, Open Graph URLs and the sitemap are absolute (VITE_SITE_URL). */
export const DEFAULT_SITE_URL = 'https://www.summitbank.example';

export const SITE_NAME = bankDetails.name;

/** The document title of a page, as PageTitle sets it. */
export function documentTitle(title: string | null): string {
  return title ? `${title} · ${SITE_NAME}` : `${SITE_NAME} — Personal and business banking`;
}

/** The route above the screens that call the API (app/router.tsx): the sign-in and sign-up pages sit under it. */
const QUERY_AREA = 'app/QueryArea.tsx';

export const publicPages: readonly PublicPage[] = [
  {
    path: '/',
    title: null,
    description: 'Summit Bank: savings and checking accounts, credit cards, home and vehicle loans for individuals and companies, online and on the mobile app.',
    modules: ['features/public/pages/HomePage.tsx'],
  },
  {
    path: '/account/savings',
    title: 'Savings Account',
    description: 'Earn up to 5% a year on a Summit Bank savings account, with deposits insured up to $250,000. Open an account online in minutes.',
    modules: ['features/public/pages/SavingsAccountPage.tsx'],
  },
  {
    path: '/account/checking',
    title: 'Checking Account',
    description: 'Everyday banking without the fees: a Summit Bank checking account with a debit card, mobile banking and free transfers.',
    modules: ['features/public/pages/CheckingAccountPage.tsx'],
  },
  {
    path: '/cards/credit-card',
    title: 'Credit Cards',
    description: 'Business, cashback, low interest, rewards and travel credit cards: earn $200 after you spend $1,500 in 6 months, plus 2% cash back.',
    modules: ['features/public/pages/CreditCardPage.tsx'],
  },
  {
    path: '/loan/home-loan',
    title: 'Home Loan',
    description: 'Fixed and adjustable rate home loans from Summit Bank: apply, get a call back and a decision in days.',
    modules: ['features/public/pages/HomeLoanPage.tsx'],
  },
  {
    path: '/loan/auto-loan',
    title: 'Vehicle Loan',
    description: 'Finance your next car with a Summit Bank vehicle loan: apply online, get a call back and drive away sooner.',
    modules: ['features/public/pages/AutoLoanPage.tsx'],
  },
  {
    path: '/about',
    title: 'About Us',
    description: 'Summit Bank: our mission and vision, 86 branches, our awards and the annual report.',
    modules: ['features/public/pages/AboutPage.tsx'],
  },
  {
    path: '/careers',
    title: 'Careers',
    description: 'Open positions at Summit Bank by department and location, and how to apply.',
    modules: ['features/public/pages/CareersPage.tsx'],
  },
  {
    path: '/contact',
    title: 'Contact Us',
    description: 'Get in touch with Summit Bank: send us a message, call customer care or visit our office, Mon-Fri 9.00am to 5.00pm.',
    modules: ['features/public/pages/ContactPage.tsx'],
  },
  {
    path: '/signin',
    title: 'Login',
    description: 'Log in to Summit Bank online banking to see your balances and transactions and to transfer money.',
    modules: [QUERY_AREA, 'features/auth/pages/SignInPage.tsx'],
  },
  {
    path: '/signup',
    title: 'Open an Account',
    description: 'Open a Summit Bank account online in minutes: savings and checking, with deposits insured up to $250,000.',
    modules: [QUERY_AREA, 'features/auth/pages/SignUpPage.tsx'],
  },
  {
    path: '/forgot-password',
    title: 'Reset your password',
    description: 'Forgotten your Summit Bank password? Enter your e-mail address and we will send you a link to choose a new one.',
    modules: [QUERY_AREA, 'features/auth/pages/ForgotPasswordPage.tsx'],
  },
];

/** Path prefixes crawlers must not visit (robots.txt): the customer area (and /account-verification), the staff areas, the API. */
export const disallowedPaths: readonly string[] = ['/account', '/admin', '/audit', '/api'];

/** The public page at a path, if it is one. */
export function publicPageAt(path: string): PublicPage | undefined {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return publicPages.find((page) => page.path === normalized);
}

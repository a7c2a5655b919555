import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectNoConsoleErrors, launchBrowser, newPage, type E2eBrowser } from './harness/browser';

interface RouteCheck {
  readonly path: string;
  readonly heading: string | RegExp;
  readonly texts: readonly string[];
  /** Links (by href) the page must offer. */
  readonly links?: readonly string[];
}

const routes: readonly RouteCheck[] = [
  {
    path: '/',
    heading: /Summit Bank/,
    texts: [
      'Everything you need from your bank', 'Accounts', 'Home Loans', 'Credit Cards', 'up to 5% interest per year',
      'Individuals', 'Companies', 'Savings & CDs', 'Online & Mobile', 'Consumer Loans',
      'Trade FX', 'Multi Currency a/c', 'Mutual Funds', 'Pension Scheme',
      'Card', 'Mobile/Internet Banking', 'Account Details Changing', 'Cheque Book/DD',
      'Block Debit/ATM Card', 'Generate Debit Card Pin Number', 'Unlock Debit/ATM Card', 'Reissue Lost Debit/ATM Card',
      'Photo Card', 'Custom Request', 'Your bank in your pocket',
    ],
    links: ['/signup'],
  },
  {
    path: '/account/savings',
    heading: 'Savings that grow with every deposit',
    texts: ['Open an Account', 'up to 7% per year', '$250,000'],
    links: ['/signup'],
  },
  { path: '/account/checking', heading: 'Everyday banking, without the fees', texts: ['Joint Account', '$250,000'], links: ['/signup'] },
  {
    path: '/cards/credit-card',
    heading: 'A card for every way you spend',
    texts: [
      'Business', 'Cashback', 'Low Interest', 'Rewards', 'Travel & Hotel', 'Apply Now',
      'Earn $200 after you spend $1,500 in the first 6 months, plus 2% cash back',
      'Minimum age 18', 'US resident', 'A funded account with us', 'Open your account online',
    ],
    links: ['/contact', '/signup'],
  },
  { path: '/loan/home-loan', heading: 'Finance the home you have been dreaming of', texts: ['Apply Here', 'Get Call Back', 'Process Your Request'], links: ['/contact'] },
  { path: '/loan/auto-loan', heading: 'Drive away in your next car sooner', texts: ['Apply Here', 'Get Call Back', 'Process Your Request'], links: ['/contact'] },
  {
    path: '/about',
    heading: 'About Summit Bank',
    texts: ['Our Mission', 'Our Vision', '86', 'branches', 'Awards', 'Download the annual report'],
    links: ['/reports/summit-bank-annual-report-2024.html'],
  },
  {
    path: '/careers',
    heading: 'Grow your career with us',
    texts: ['Department', 'Role', 'Location', 'Last date', 'Apply', 'Get career updates'],
    links: ['/contact'],
  },
  {
    path: '/contact',
    heading: 'We are here to help',
    texts: ['Get In Touch', 'Office address', 'Office hours', 'Mon-Fri 9.00am to 5.00pm', 'Customer Care Numbers', 'General Query/Complaint', 'Credit Card'],
  },
  { path: '/signin', heading: 'Login to Your Account', texts: ['Email', 'Password'], links: ['/forgot-password', '/signup'] },
  { path: '/signup', heading: 'Create Your Account', texts: ['First name', 'Repeat password', 'House address', 'State'], links: ['/signin'] },
  { path: '/forgot-password', heading: 'Reset your password', texts: ['Email', 'Send reset link', 'No longer using that e-mail address?'], links: ['/contact', '/signin'] },
  { path: '/reset-password?token=preview', heading: 'Choose a new password', texts: ['New password', 'Confirm new password', 'Reset password'], links: ['/signin'] },
  { path: '/no-such-page', heading: 'Not Found', texts: ['Back to home'], links: ['/'] },
];

describe('public routes', () => {
  let e2e: E2eBrowser;
  beforeAll(async () => {
    e2e = await launchBrowser();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  for (const route of routes) {
    it(`${route.path} renders its key content in the shared layout with no console errors`, async () => {
      const tracked = await newPage(e2e);
      const { page } = tracked;
      const origin = new URL(inject('baseUrl')).origin;
      const outside: string[] = [];
      page.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith('data:') && !url.startsWith('blob:') && !url.startsWith(origin)) outside.push(url);
      });
      await page.goto(route.path);
      const heading = page.getByRole('heading', { level: 1, name: route.heading });
      await heading.waitFor({ state: 'attached' });

      const text = (await page.locator('main').textContent()) ?? '';
      for (const expected of route.texts) expect(text, `${route.path} shows "${expected}"`).toContain(expected);
      for (const href of route.links ?? []) expect(await page.locator(`main a[href="${href}"]`).count(), `${route.path} links to ${href}`).toBeGreaterThan(0);

      // The shared layout: header navigation, Login and Open an Account, footer with banking hours.
      const header = page.getByRole('banner');
      expect(await header.locator('a[href="/signin"]').count()).toBe(1);
      expect(await header.locator('a[href="/signup"]').count()).toBe(1);
      expect(await page.getByRole('contentinfo').textContent()).toContain('Mon-Fri 9.00am to 5.00pm');

      await page.waitForLoadState('networkidle');
      expect(outside, 'requests to other hosts').toEqual([]);
      expectNoConsoleErrors(tracked);
      await tracked.context.close();
    });
  }

  it('the home page has a three-slide hero, each slide linking to sign up, and does not fetch /api/contacts', async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    const apiCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) apiCalls.push(request.url());
    });
    await page.goto('/');
    const slides = page.locator('.hero .swiper-slide');
    await slides.first().waitFor();
    expect(await slides.count()).toBe(3);
    for (let index = 0; index < 3; index += 1) expect(await slides.nth(index).locator('a[href="/signup"]').count()).toBe(1);
    await page.waitForLoadState('networkidle');
    expect(apiCalls.filter((url) => url.includes('/api/contacts'))).toEqual([]);
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('every in-app link of the header, footer and home page leads to a real page (no dead links)', async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await page.goto('/');
    await page.locator('main h1').waitFor({ state: 'attached' });
    const hrefs = await page.locator('a[href^="/"]').evaluateAll((anchors) => [...new Set(anchors.map((anchor) => anchor.getAttribute('href') ?? ''))]);
    expect(hrefs.length).toBeGreaterThan(12);
    for (const href of hrefs) {
      if (href.startsWith('/reports/')) {
        const response = await page.request.get(href);
        expect(response.status(), href).toBe(200);
        expect(await response.text()).toContain('Annual Report 2024');
        continue;
      }
      await page.goto(href);
      await page.locator('main h1').waitFor({ state: 'attached' });
      expect(await page.locator('main h1').first().textContent(), `${href} is not Not Found`).not.toBe('Not Found');
      const hash = new URL(href, 'http://x').hash;
      if (hash) expect(await page.locator(hash).count(), `${href} has its section`).toBe(1);
    }
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('the annual report is a real download', async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await page.goto('/about');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Download the annual report/ }).click()]);
    expect(download.suggestedFilename()).toBe('summit-bank-annual-report-2024.html');
    const file = await download.path();
    expect(file).toBeTruthy();
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, viewports, type E2eBrowser } from './harness/browser';

/** Main pages, shot at the three widths the layout is designed for; kept in artifacts/screenshots/. */
const pages = [
  { name: 'home', path: '/' },
  { name: 'savings', path: '/account/savings' },
  { name: 'checking', path: '/account/checking' },
  { name: 'credit-card', path: '/cards/credit-card' },
  { name: 'home-loan', path: '/loan/home-loan' },
  { name: 'auto-loan', path: '/loan/auto-loan' },
  { name: 'about', path: '/about' },
  { name: 'careers', path: '/careers' },
  { name: 'contact', path: '/contact' },
  { name: 'signin', path: '/signin' },
  { name: 'signup', path: '/signup' },
  { name: 'forgot-password', path: '/forgot-password' },
  { name: 'reset-password', path: '/reset-password?token=preview' },
  { name: 'not-found', path: '/no-such-page' },
];

describe('screenshots at 375, 768 and 1280 px', () => {
  let e2e: E2eBrowser;
  beforeAll(async () => {
    e2e = await launchBrowser();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  for (const [label, viewport] of Object.entries(viewports)) {
    it(`${label} (${viewport.width}px): no horizontal overflow, saved to artifacts/screenshots`, async () => {
      const tracked = await newPage(e2e, { viewport });
      const { page } = tracked;
      for (const target of pages) {
        await page.goto(target.path);
        await page.locator('main h1').waitFor({ state: 'attached' });
        await page.waitForLoadState('networkidle');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${target.path} at ${viewport.width}px scrolls sideways`).toBeLessThanOrEqual(0);
        await screenshot(page, `${target.name}-${viewport.width}`);
      }
      expectNoConsoleErrors(tracked);
      await tracked.context.close();
    });
  }
});

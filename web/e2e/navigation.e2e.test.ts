import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, viewports, type E2eBrowser } from './harness/browser';

describe('header navigation', () => {
  let e2e: E2eBrowser;
  beforeAll(async () => {
    e2e = await launchBrowser();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('at 375 px the menu button expands and collapses the navigation', async () => {
    const tracked = await newPage(e2e, { viewport: viewports.mobile });
    const { page } = tracked;
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await toggle.waitFor();
    expect(await toggle.isVisible()).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await nav.waitFor({ state: 'visible' });
    expect(await nav.getByRole('link', { name: 'Login' }).isVisible()).toBe(true);
    expect(await nav.getByRole('link', { name: 'Open an Account' }).isVisible()).toBe(true);
    const box = await nav.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(375);
    await screenshot(page, 'mobile-menu-open-375');

    // A submenu opens inline; following a link navigates and collapses the menu.
    await nav.getByRole('button', { name: 'Loans' }).click();
    await nav.getByRole('link', { name: 'Vehicle Loan' }).click();
    await page.waitForURL('**/loan/auto-loan');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);

    await toggle.click();
    await nav.waitFor({ state: 'visible' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await nav.waitFor({ state: 'hidden' });
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('at 1280 px the navigation is inline and its menus work from the keyboard', async () => {
    const tracked = await newPage(e2e, { viewport: viewports.desktop });
    const { page } = tracked;
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);

    const accounts = page.getByRole('button', { name: 'Accounts' });
    await accounts.focus();
    await page.keyboard.press('Enter');
    expect(await accounts.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await accounts.getAttribute('aria-expanded')).toBe('false');
    expect(await accounts.evaluate((element) => element === document.activeElement)).toBe(true);

    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('All Accounts');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Savings Account');
    await screenshot(page, 'accounts-menu-open-1280');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/account/savings');
    await page.getByRole('heading', { level: 1, name: 'Savings that grow with every deposit' }).waitFor();
    expect(await accounts.getAttribute('aria-expanded')).toBe('false');

    // Menu entries pointing at a section scroll it into view.
    await accounts.click();
    await page.getByRole('link', { name: 'Joint Account' }).click();
    await page.waitForURL('**/account/checking#joint');
    const joint = page.locator('#joint');
    await joint.waitFor();
    await page.waitForFunction(() => {
      const rect = document.getElementById('joint')?.getBoundingClientRect();
      return rect !== undefined && rect.top >= 0 && rect.top < window.innerHeight / 2;
    });
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('the skip link moves focus to the main content', async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await page.goto('/contact');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    expect(await skip.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'main');
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });
});

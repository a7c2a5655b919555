import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, newCustomer, signInApi, signUpCustomer, staffSession, storeSession } from '../harness/apiHelpers';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, viewports, type E2eBrowser } from '../harness/browser';
import type { User } from '../../src/lib/api/types';
import { answerDialogs } from '../admin/adminSteps';

/** Every screen of the customer area, at 375, 768 and 1280 px: it renders, nothing scrolls sideways, no console errors. */
const screens = [
  { name: 'home', path: '/account/home', heading: 'Overview' },
  { name: 'transactions', path: '/account/transactions', heading: 'Transactions' },
  { name: 'transfer', path: '/account/transfer', heading: 'Transfer money' },
  { name: 'cards', path: '/account/cards', heading: 'Cards' },
  { name: 'support', path: '/account/support', heading: 'Contact us' },
  { name: 'profile', path: '/account/profile', heading: 'Profile' },
  { name: 'info', path: '/account/info', heading: 'Account details' },
  { name: 'settings', path: '/account/settings', heading: 'Settings' },
  { name: 'update-account', path: '/account/update-account', heading: 'Edit profile' },
  { name: 'update-password', path: '/account/update-password', heading: 'Update password' },
  { name: 'beneficiaries', path: '/account/beneficiaries', heading: 'Beneficiaries' },
];

describe('the customer area at 375, 768 and 1280 px', () => {
  let e2e: E2eBrowser;
  let session: { token: string; user: User };

  beforeAll(async () => {
    e2e = await launchBrowser();
    const customer = await signUpCustomer(newCustomer({ firstName: 'Grace', lastName: 'Hopper' }));
    const admin = await staffSession('admin');
    const { user } = await signInApi(customer.email, customer.password);
    await callApi('PUT', `/user/admin/account/${user._id}`, { savings: 2500.75, checking: 310, number: user.account.number, reason: 'e2e' }, admin.token);
    await callApi('POST', `/transaction/admin/${user._id}`, { amount: 42.1, transactionType: 'debit', date: '2025-03-04', description: 'Coffee beans', account: 'checking' }, admin.token);
    session = await signInApi(customer.email, customer.password);
  });

  afterAll(async () => {
    await e2e?.close();
  });

  for (const [label, viewport] of Object.entries(viewports)) {
    it(`${label} (${viewport.width}px)`, async () => {
      const tracked = await newPage(e2e, { viewport });
      const { page } = tracked;
      await storeSession(page, session.token, session.user);
      for (const target of screens) {
        await page.goto(target.path);
        await page.getByRole('heading', { name: target.heading, level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${target.path} at ${viewport.width}px scrolls sideways`).toBeLessThanOrEqual(0);
        await screenshot(page, `account-${target.name}-${viewport.width}`);
      }

      const menu = page.getByRole('button', { name: 'Open menu' });
      if (viewport.width < 900) {
        expect(await page.getByRole('navigation', { name: 'Customer area' }).isVisible()).toBe(false);
        await menu.click();
        await page.getByRole('navigation', { name: 'Customer area' }).getByRole('link', { name: 'Cards' }).waitFor({ state: 'visible' });
        await screenshot(page, `account-menu-open-${viewport.width}`);
        await page.getByRole('navigation', { name: 'Customer area' }).getByRole('link', { name: 'Cards' }).click();
        await page.getByRole('heading', { name: 'Cards', level: 1 }).waitFor();
        expect(await page.getByRole('navigation', { name: 'Customer area' }).isVisible()).toBe(false);
      } else {
        expect(await menu.isVisible()).toBe(false);
        expect(await page.getByRole('navigation', { name: 'Customer area' }).isVisible()).toBe(true);
      }
      const contentWidth = await page.locator('#portal-content').evaluate((element) => element.getBoundingClientRect().width);
      expect(contentWidth).toBeLessThanOrEqual(70 * 16 + 1);

      expectNoConsoleErrors(tracked);
      await tracked.context.close();
    });
  }

  it('copies the account number, requests a card and pages the history', async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await tracked.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await storeSession(page, session.token, session.user);

    await page.goto('/account/info');
    // The spec's browser alert (a dialog without a handler would be dismissed unseen); the page keeps the message too.
    const copied = await answerDialogs(page, ['accept'], () => page.getByRole('button', { name: 'Copy account number' }).click());
    expect(copied).toEqual([{ type: 'alert', message: 'Account number copied to clipboard' }]);
    await page.getByRole('status').getByText('Account number copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(session.user.account.number);

    await page.goto('/account/cards');
    await page.getByRole('button', { name: 'Request Card' }).click();
    await page.getByRole('dialog').getByText('Card request sent we will get back to you').waitFor();
    await screenshot(page, 'account-card-requested-1280');
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();

    await page.goto('/account/transactions');
    const list = page.getByRole('list', { name: 'Transactions' });
    await list.getByText('Coffee beans').waitFor();
    expect(await list.getByRole('listitem').filter({ hasText: 'Coffee beans' }).textContent()).toContain('-$42.10');

    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('edits the profile and changes the password', async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await storeSession(page, session.token, session.user);

    await page.goto('/account/update-account');
    expect(await page.getByLabel('First name').getAttribute('readonly')).not.toBeNull();
    await page.getByLabel('Phone number').fill('+1 720 555 0199');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL((url) => url.pathname === '/account/info');
    await page.getByRole('main').locator('.alert-success').waitFor();
    await page.getByText('+1 720 555 0199').waitFor();

    await page.goto('/account/update-password');
    await page.getByLabel('New password').waitFor();
    expect(await page.getByLabel('New password').count()).toBe(1);
    await page.getByLabel('Current password', { exact: true }).fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('brand-new-pass');
    await page.getByLabel('Confirm password', { exact: true }).fill('brand-new-pass');
    await page.getByRole('button', { name: 'Update password' }).click();
    await page.getByRole('alert').getByText('Old password is incorrect').waitFor();
    expect(await page.getByLabel('Current password', { exact: true }).inputValue()).toBe('');

    await page.getByLabel('Current password', { exact: true }).fill('secret-pass-1');
    await page.getByLabel('New password', { exact: true }).fill('brand-new-pass');
    await page.getByLabel('Confirm password', { exact: true }).fill('brand-new-pas');
    const changes: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/change-password')) changes.push(request.url());
    });
    const mismatch = await answerDialogs(page, ['accept'], () => page.getByRole('button', { name: 'Update password' }).click());
    expect(mismatch).toEqual([{ type: 'alert', message: 'Passwords do not match' }]);
    await page.getByRole('alert').getByText('Passwords do not match').waitFor();
    expect(changes).toEqual([]);

    await page.getByLabel('Confirm password', { exact: true }).fill('brand-new-pass');
    await page.getByRole('button', { name: 'Update password' }).click();
    await page.getByRole('main').locator('.alert-success').waitFor();
    await expect(signInApi(session.user.email, 'brand-new-pass')).resolves.toMatchObject({ token: expect.any(String) });

    // The refused old password is an expected 422 the browser reports as a failed resource.
    expectNoConsoleErrors(tracked, [/status of 422/]);
    await tracked.context.close();
  });

  it("transfer step 1 wants a recipient found by the lookup, and a refused transfer is alerted with the server's message", async () => {
    // A customer of its own (the one above changed its password): funded, no payment pin yet.
    const payer = await signUpCustomer(newCustomer({ firstName: 'Mary', lastName: 'Jackson' }));
    const admin = await staffSession('admin');
    const { token, user } = await signInApi(payer.email, payer.password);
    await callApi('PUT', `/user/admin/account/${user._id}`, { savings: 100, checking: 0, number: user.account.number, reason: 'e2e' }, admin.token);
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await storeSession(page, token, user);
    await page.goto('/account/transfer');
    await page.getByRole('heading', { name: 'Transfer money', level: 1 }).waitFor();

    // No account matches: 'Account not found' in the page (no alert), and Next says 'Please fill all fields'.
    const unexpected: string[] = [];
    const onDialog = (dialog: { message(): string; dismiss(): Promise<void> }) => {
      unexpected.push(dialog.message());
      void dialog.dismiss().catch(() => undefined);
    };
    page.on('dialog', onDialog);
    await page.getByLabel('From account').selectOption('savings');
    await page.getByLabel('Amount (USD)').fill('10');
    await page.getByLabel('Bank name').fill('Summit Bank');
    await page.getByLabel('Account number', { exact: true }).fill('1111111111');
    await page.getByLabel('Account type').selectOption('checking');
    await page.getByText('Account not found').waitFor({ timeout: 10_000 });
    expect(await page.getByLabel('Recipient').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('alert').getByText('Please fill all fields').waitFor();
    expect(await page.getByRole('form', { name: 'Confirm transfer' }).count()).toBe(0);
    page.off('dialog', onDialog);
    expect(unexpected).toEqual([]);

    // The own checking account is found; the server refuses (no payment pin set yet): a browser alert with its message.
    await page.getByLabel('Account number', { exact: true }).fill(user.account.number);
    await expect.poll(() => page.getByLabel('Recipient').inputValue(), { timeout: 10_000 }).toBe('Mary Jackson');
    await page.getByRole('button', { name: 'Next' }).click();
    const summary = page.getByRole('form', { name: 'Confirm transfer' });
    await summary.waitFor();
    // With no pin to type, the pin left empty: the server's answer, as the spec words it.
    const refusedEmpty = await answerDialogs(page, ['accept'], () => page.getByRole('button', { name: 'Complete' }).click());
    expect(refusedEmpty).toEqual([{ type: 'alert', message: 'Please set your payment pin' }]);
    await summary.getByRole('alert').getByText('Please set your payment pin').waitFor();
    // A full-page picture of a scrolled page draws the sticky header where the page was scrolled to: from the top.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'account-transfer-no-pin-1280');
    await page.getByLabel('Payment pin').fill('123456');
    const refused = await answerDialogs(page, ['accept'], () => page.getByRole('button', { name: 'Complete' }).click());
    expect(refused).toEqual([{ type: 'alert', message: 'Please set your payment pin' }]);
    await summary.getByRole('alert').getByText('Please set your payment pin').waitFor();
    expect(new URL(page.url()).pathname).toBe('/account/transfer');

    // The refusal is an expected 4xx the browser reports as a failed resource.
    expectNoConsoleErrors(tracked, [/status of 4\d\d/]);
    await tracked.context.close();
  });
});

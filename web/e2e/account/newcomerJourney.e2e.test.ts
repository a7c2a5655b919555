import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, newCustomer, readSession, signInApi, signUpCustomer, type NewCustomer } from '../harness/apiHelpers';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, type E2eBrowser, type TrackedPage } from '../harness/browser';
import type { Envelope, User } from '../../src/lib/api/types';
import { adminLogin, adminLogout, openUserByEmail, setBalances, setStatusAndPin } from '../admin/adminSteps';
import {
  completeVerificationThroughUi,
  expectHomeBalances,
  logOutFromSidebar,
  signInThroughUi,
  signUpThroughUi,
  waitForPath,
} from './customerSteps';

/**
 * A newcomer's first days, in the browser against the real server: sign up, verification, the admin funds the
 * account and sets the payment pin in the admin UI, the newcomer signs in and sends money to another customer
 * found by the account-number lookup, sees it in the transactions list, the recipient sees it arrive, and
 * logging out closes the customer area.
 */
describe('a newcomer: sign up → verification → funded by the admin → transfer → logout', () => {
  let e2e: E2eBrowser;
  let newcomerPage: TrackedPage;
  let adminPage: TrackedPage;
  const newcomer: NewCustomer = newCustomer({ firstName: 'Ada', lastName: 'Lovelace' });
  const recipient: NewCustomer = newCustomer({ firstName: 'Charles', lastName: 'Babbage' });
  let recipientAccount = '';
  let oldToken = '';

  beforeAll(async () => {
    e2e = await launchBrowser();
    await signUpCustomer(recipient);
    const { user } = await signInApi(recipient.email, recipient.password);
    recipientAccount = user.account.number;
    newcomerPage = await newPage(e2e);
    adminPage = await newPage(e2e);
  });

  afterAll(async () => {
    await newcomerPage?.context.close();
    await adminPage?.context.close();
    await e2e?.close();
  });

  it('signs up, lands on the verification, sends the documents and reaches the customer home', async () => {
    const { page } = newcomerPage;
    await signUpThroughUi(page, newcomer);
    await screenshot(page, 'journey-01-verification');
    await completeVerificationThroughUi(page);
    await page.getByText('Welcome,').waitFor();
    expect(await page.locator('.portal-welcome').textContent()).toBe('Welcome, Ada');
    await expectHomeBalances(page, '$0.00', '$0.00');
    await page.getByText('No transactions yet').waitFor();
    await screenshot(page, 'journey-02-home-empty');
    await logOutFromSidebar(page);
    expect(await readSession(page)).toEqual({ token: null, user: null });
  });

  it('the admin sets the balances, verifies the newcomer and sets a payment pin in the admin UI', async () => {
    const { page } = adminPage;
    await adminLogin(page);
    const userId = await openUserByEmail(page, newcomer.email);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Ada Lovelace');
    await page.getByRole('heading', { name: /Verification/ }).waitFor();
    await page.getByRole('img', { name: 'Document front' }).waitFor();
    await screenshot(page, 'journey-03-admin-user-detail');
    await setBalances(page, userId, '500', '100');
    await setStatusAndPin(page, userId, 'verified', '246810');
    await page.goto(`/admin/users/${userId}`);
    await page.getByText('$500.00').waitFor();
    await page.getByText('$100.00').waitFor();
    await screenshot(page, 'journey-04-admin-user-funded');
    await adminLogout(page);
    expectNoConsoleErrors(adminPage);
  });

  it('signs in and sees the money', async () => {
    const { page } = newcomerPage;
    await signInThroughUi(page, newcomer.email, newcomer.password);
    await waitForPath(page, '/account/home');
    await expectHomeBalances(page, '$500.00', '$100.00');
    await page.getByRole('list', { name: 'Recent transactions' }).waitFor();
    await screenshot(page, 'journey-05-home-funded');
  });

  it('transfers to the second customer found by the lookup: form → summary → pin → Transfer Successful', async () => {
    const { page } = newcomerPage;
    await page.getByRole('navigation', { name: 'Customer area' }).getByRole('link', { name: 'Transfer' }).click();
    await waitForPath(page, '/account/transfer');
    await page.getByLabel('From account').selectOption('savings');
    await page.getByLabel('Amount (USD)').fill('125.50');
    await page.getByLabel('Bank name').fill('Summit Bank');
    await page.getByLabel('Account number', { exact: true }).fill(recipientAccount);
    await expect.poll(() => page.getByLabel('Recipient').inputValue(), { timeout: 10_000 }).toBe('Charles Babbage');
    await page.getByLabel('Routing number').fill('102000021');
    await page.getByLabel('Account type').selectOption('checking');
    await page.getByLabel('Description').fill('Gear wheels');
    await screenshot(page, 'journey-06-transfer-form');
    await page.getByRole('button', { name: 'Next' }).click();

    const summary = page.getByRole('form', { name: 'Confirm transfer' });
    await summary.waitFor();
    expect(await summary.textContent()).toContain('$125.50');
    expect(await summary.textContent()).toContain('Charles Babbage');
    await page.getByRole('button', { name: 'Back' }).click();
    expect(await page.getByLabel('Amount (USD)').inputValue()).toBe('125.50');
    expect(await page.getByLabel('Description').inputValue()).toBe('Gear wheels');
    await page.getByRole('button', { name: 'Next' }).click();
    await summary.waitFor();
    await page.getByLabel('Payment pin').fill('246810');
    await screenshot(page, 'journey-07-transfer-summary');
    await page.getByRole('button', { name: 'Complete' }).dblclick();
    await waitForPath(page, '/account/transactions');
    await page.getByText('Transfer Successful').waitFor();
  });

  it('shows the transfer once in the transactions list, and the new balance at home', async () => {
    const { page } = newcomerPage;
    const list = page.getByRole('list', { name: 'Transactions' });
    await list.waitFor();
    const transfer = list.getByRole('listitem').filter({ hasText: '125.50' });
    await transfer.first().waitFor();
    expect(await transfer.count()).toBe(1);
    expect(await transfer.textContent()).toContain('-$125.50');
    await screenshot(page, 'journey-08-transactions');
    await expectHomeBalances(page, '$374.50', '$100.00');
  });

  it("the recipient sees the money in their checking account", async () => {
    const recipientPage = await newPage(e2e);
    const { page } = recipientPage;
    await signInThroughUi(page, recipient.email, recipient.password);
    await page.goto('/account/home');
    await expectHomeBalances(page, '$0.00', '$125.50');
    const recent = page.getByRole('list', { name: 'Recent transactions' });
    await recent.getByText('+$125.50').waitFor();
    await screenshot(page, 'journey-09-recipient-home');
    expectNoConsoleErrors(recipientPage);
    await recipientPage.context.close();
  });

  it('logs out from the settings; the token is revoked and the customer area sends the visitor to sign in', async () => {
    const { page } = newcomerPage;
    oldToken = (await readSession(page)).token ?? '';
    expect(oldToken).not.toBe('');
    await page.goto('/account/settings');
    await page.getByRole('main').getByRole('button', { name: /^Logout/ }).click();
    await waitForPath(page, '/signin');
    expect(await readSession(page)).toEqual({ token: null, user: null });
    await expect(callApi<Envelope<User>>('GET', '/auth/user', undefined, oldToken)).rejects.toThrow(/401/);
    await page.goto('/account/transactions');
    await waitForPath(page, '/signin');
    await page.getByRole('heading', { name: 'Login to Your Account' }).waitFor();
    await screenshot(page, 'journey-10-guard-after-logout');
    expectNoConsoleErrors(newcomerPage);
    expect(inject('baseUrl')).toMatch(/^http/);
  });
});

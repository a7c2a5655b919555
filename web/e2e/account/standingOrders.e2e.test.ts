import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, newCustomer, signInApi, signUpCustomer, staffSession, storeSession } from '../harness/apiHelpers';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, type E2eBrowser } from '../harness/browser';
import type { User } from '../../src/lib/api/types';

/**
 * The standing-order journey in Chromium against the real server: a customer with a payment pin creates a monthly
 * order starting today in the transfer's two steps, sees it paid at once and its next date, then pauses, resumes
 * and cancels it; the payment is in the transaction list, marked as coming from the order.
 */
describe('standing orders', () => {
  const PIN = '135790';
  let e2e: E2eBrowser;
  let session: { token: string; user: User };
  let payee: User;
  const now = new Date();
  const today = now.toISOString().slice(0, 10);

  beforeAll(async () => {
    e2e = await launchBrowser();
    const admin = await staffSession('admin');
    const payer = await signUpCustomer(newCustomer({ firstName: 'Stella', lastName: 'Order' }));
    const recipient = await signUpCustomer(newCustomer({ firstName: 'Rita', lastName: 'Landlord' }));
    payee = (await signInApi(recipient.email, recipient.password)).user;
    const { user } = await signInApi(payer.email, payer.password);
    const { firstName, lastName, email, phone, address, state } = payer;
    await callApi('PUT', `/user/admin/${user._id}`, { firstName, lastName, email, phone, location: { address, state }, paymentPin: PIN }, admin.token);
    await callApi('PUT', `/user/admin/account/${user._id}`, { savings: 0, checking: 2000, number: user.account.number, reason: 'e2e' }, admin.token);
    session = await signInApi(payer.email, payer.password);
  });

  afterAll(async () => {
    await e2e?.close();
  });

  it('creates a monthly order from today with the pin: paid at once, then paused, resumed and cancelled', async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await storeSession(page, session.token, session.user);
    await page.goto('/account/home');
    await page.getByRole('navigation', { name: 'Customer area' }).getByRole('link', { name: 'Standing orders' }).click();
    await page.getByRole('heading', { name: 'Standing orders', level: 1 }).waitFor();
    await page.getByText('No standing orders yet').waitFor();
    await page.getByRole('button', { name: 'New standing order' }).click();

    await page.getByLabel('From account').selectOption('checking');
    await page.getByLabel('Amount (USD)').fill('750');
    await page.getByLabel('Bank name').fill('Summit Bank');
    await page.getByLabel('Account number', { exact: true }).fill(payee.account.number);
    await expect.poll(() => page.getByLabel('Recipient').inputValue(), { timeout: 10_000 }).toBe('Rita Landlord');
    await page.getByLabel('Account type').selectOption('checking');
    await page.getByLabel('Description').fill('Rent');
    // The defaults: monthly on today's day of the month, from today.
    expect(await page.getByLabel('Day of the month').inputValue()).toBe(String(now.getUTCDate()));
    await page.getByLabel('Ends').selectOption('count');
    await page.getByLabel('Number of payments').fill('12');
    await screenshot(page, 'standing-order-form');
    await page.getByRole('button', { name: 'Next' }).click();

    const summary = page.getByRole('form', { name: 'Confirm standing order' });
    await summary.waitFor();
    expect(await summary.textContent()).toContain('Rita Landlord');
    expect(await summary.textContent()).toContain(`from ${today}, 12 payments`);
    await page.getByLabel('Payment pin').fill(PIN);
    await page.getByRole('button', { name: 'Complete' }).click();

    await page.getByText(/^Standing order created\./).waitFor();
    const order = page.getByRole('listitem', { name: '$750.00 to Rita Landlord' });
    await order.getByRole('table', { name: 'Latest payments' }).getByRole('cell', { name: 'Paid' }).waitFor();
    expect(await order.getByRole('table').getByRole('cell').first().textContent()).toBe(today);
    expect(await order.textContent()).toContain('Next payment: ');
    await screenshot(page, 'standing-orders-list');
    const results = await new AxeBuilder({ page }).analyze();
    const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(blocking.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);

    await order.getByRole('button', { name: 'Pause' }).click();
    await order.getByText('Paused', { exact: true }).waitFor();
    expect(await order.textContent()).toContain('No payment planned');
    await order.getByRole('button', { name: 'Resume' }).click();
    await order.getByText('Active', { exact: true }).waitFor();
    // A refused accept leaves the dialog open and the wait below fails the test, rather than an unhandled rejection.
    page.once('dialog', (dialog) => void dialog.accept().catch(() => undefined));
    await order.getByRole('button', { name: 'Cancel order' }).click();
    await order.getByText('Cancelled', { exact: true }).waitFor();

    // The payment in the transaction list, marked as the order's; the money left checking once.
    await page.getByRole('navigation', { name: 'Customer area' }).getByRole('link', { name: 'Transactions' }).click();
    await page.getByText('Standing order: Rent').first().waitFor();
    expect(await page.getByText('Standing order: Rent').count()).toBe(1);
    const me = await callApi<{ data: User }>('GET', '/auth/user', undefined, session.token);
    expect(me.data.account.checking).toBe(1250);
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });
});

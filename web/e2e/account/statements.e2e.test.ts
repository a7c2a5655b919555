import { readFile } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, newCustomer, signInApi, signUpCustomer, staffSession, storeSession } from '../harness/apiHelpers';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, viewports, type E2eBrowser } from '../harness/browser';
import type { User } from '../../src/lib/api/types';

/**
 * The statement journey in Chromium against the real server: a customer opens Statements, picks the current month,
 * sees the opening balance, each transaction with its running balance and the closing balance, and downloads the
 * CSV; an admin downloads the same customer's statement as a PDF from the customer's page.
 */
describe('statements', () => {
  let e2e: E2eBrowser;
  let session: { token: string; user: User };
  let admin: { token: string; user: User };
  const month = new Date().toISOString().slice(0, 7);

  beforeAll(async () => {
    e2e = await launchBrowser();
    const customer = await signUpCustomer(newCustomer({ firstName: 'Stan', lastName: 'Statement' }));
    admin = await staffSession('admin');
    const { user } = await signInApi(customer.email, customer.password);
    // Recorded now, so in the current month: a balance set to $500 (an adjustment), then a staff debit of $42.10.
    await callApi('PUT', `/user/admin/account/${user._id}`, { savings: 0, checking: 500, number: user.account.number, reason: 'e2e' }, admin.token);
    await callApi('POST', `/transaction/admin/${user._id}`, { amount: 42.1, transactionType: 'debit', date: new Date().toISOString().slice(0, 10), description: 'Coffee beans', account: 'checking' }, admin.token);
    session = await signInApi(customer.email, customer.password);
  });

  afterAll(async () => {
    await e2e?.close();
  });

  it('shows the month with running balances and downloads it as CSV', async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await storeSession(page, session.token, session.user);
    await page.goto('/account/home');
    await page.getByRole('navigation', { name: 'Customer area' }).getByRole('link', { name: 'Statements' }).click();
    await page.getByRole('heading', { name: 'Statements', level: 1 }).waitFor();
    await page.getByLabel('Month', { exact: true }).selectOption(month);
    const table = page.getByRole('table');
    await table.getByRole('cell', { name: 'Coffee beans' }).waitFor();
    expect(await page.getByTestId('statement-opening').textContent()).toBe('$0.00');
    expect(await page.getByTestId('statement-in').textContent()).toBe('+$500.00');
    expect(await page.getByTestId('statement-out').textContent()).toBe('-$42.10');
    expect(await page.getByTestId('statement-closing').textContent()).toBe('$457.90');
    const coffee = table.getByRole('row').filter({ hasText: 'Coffee beans' });
    expect(await coffee.getByRole('cell').allTextContents()).toEqual([expect.any(String), 'Coffee beans', '-$42.10', '$457.90']);
    await screenshot(page, 'account-statements');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const lastDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
    expect(download.suggestedFilename()).toBe(`statement-checking-${month}-01-${lastDay}.csv`);
    const rows = (await readFile((await download.path()) ?? '', 'utf8')).trimEnd().split('\r\n');
    expect(rows[0]).toBe('date,transaction_id,description,type,amount,balance_after');
    expect(rows[1]).toBe(`${month}-01,,Opening balance,opening,,0.00`);
    expect(rows.slice(2, -1).map((row) => row.split(',').slice(2))).toEqual([
      // The adjustment's description is the admin's reason.
      ['e2e', 'credit', '500.00', '500.00'],
      ['Coffee beans', 'debit', '-42.10', '457.90'],
    ]);
    expect(rows.at(-1)).toBe(`${lastDay},,Closing balance,closing,,457.90`);
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('fits a 375 px screen and passes the accessibility scan (axe-core, WCAG 2.1 AA: nothing serious or critical)', async () => {
    const tracked = await newPage(e2e, { viewport: viewports.mobile });
    const { page } = tracked;
    await storeSession(page, session.token, session.user);
    await page.goto('/account/statements');
    await page.getByLabel('Month', { exact: true }).selectOption(month);
    await page.getByRole('table').getByRole('cell', { name: 'Coffee beans' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'account-statements-375');
    const results = await new AxeBuilder({ page }).analyze();
    const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(blocking.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
    // A custom range: the day before this month (before the customer existed) is empty.
    const dayBefore = new Date(Date.parse(`${month}-01T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Custom dates').check();
    await page.getByLabel('From', { exact: true }).fill(dayBefore);
    await page.getByLabel('To', { exact: true }).fill(dayBefore);
    await page.getByText('No transactions in this period').waitFor();
    expect(await page.getByTestId('statement-closing').textContent()).toBe('$0.00');
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it("lets an admin download the customer's statement as a PDF", async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await storeSession(page, admin.token, admin.user);
    await page.goto(`/admin/users/${session.user._id}`);
    await page.getByRole('heading', { name: 'Statement', level: 2 }).waitFor();
    await page.getByLabel('Month', { exact: true }).selectOption(month);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download statement PDF' }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^statement-checking-${month}-01-\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
    const pdf = await readFile((await download.path()) ?? '');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });
});

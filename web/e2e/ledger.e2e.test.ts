import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chartOfAccounts } from '@bank/domain';
import { adminLogin, enterCode, formOutcome } from './admin/adminSteps';
import { callApi, newCustomer, signInApi, signUpCustomer, staffSession, TINY_PNG, type NewCustomer } from './harness/apiHelpers';
import { expectNoConsoleErrors, launchBrowser, newPage, viewports, type E2eBrowser, type TrackedPage } from './harness/browser';
import type { Envelope, User } from '../src/lib/api/types';
import type { BusinessDate, LedgerEntry, Reconciliation } from '../src/features/ledger/ledgerTypes';

const PNG_DATA_URL = `data:image/png;base64,${TINY_PNG.toString('base64')}`;
const PIN = '135790';
const EDIT_REASON = 'Opening balances for the books';
const POSTING_REASON = 'Goodwill credit after a complaint';
/** A routing number that passes the ABA check digit (an external transfer's). */
const OTHER_BANK_ROUTING = '021000021';

/** Screenshots of this file, in a temporary directory of their own (printed as they are written). */
const shotsDir = mkdtempSync(path.join(os.tmpdir(), 'bank-ledger-e2e-'));
const shots: string[] = [];

async function shoot(page: Page, name: string): Promise<void> {
  const file = path.join(shotsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  shots.push(file);
  console.log(`screenshot: ${file}`);
}

async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** GET as staff, unwrapping `{data}`. */
async function staffGet<T>(pathAndQuery: string, token: string): Promise<T> {
  return (await callApi<Envelope<T>>('GET', pathAndQuery, undefined, token)).data;
}

/** Polls `check` every 250 ms until it answers true (the projector and the transfer process run on their own). */
async function until(what: string, check: () => Promise<boolean>, attempts = 80): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** An ISO instant as the value of an <input type="datetime-local" step="1">, in the browser's own time zone. */
function localInputValue(page: Page, iso: string): Promise<string> {
  return page.evaluate((instant) => {
    const date = new Date(instant);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  }, iso);
}

const sizes = [
  ['1280', viewports.desktop],
  ['375', viewports.mobile],
] as const;

/**
 * Every ledger page as `role` sees it at the page's current width: the trial balance balanced, the chart, the payer's
 * journal lines, the reconciliation with every difference zero, the day closes; no sideways scrolling.
 */
async function visitLedgerPages(page: Page, role: 'admin' | 'auditor', width: string, payer: User): Promise<void> {
  const ledgerNav = page.getByRole('navigation', { name: 'Ledger' });

  await page.goto('/audit/ledger');
  await page.getByRole('heading', { name: 'Ledger', level: 1 }).waitFor();
  await page.getByTestId('business-date').waitFor();
  await page.locator('.alert-success strong', { hasText: /^Balanced$/ }).waitFor();
  expect(await page.getByText('Not balanced').count()).toBe(0);
  const trial = page.getByRole('table', { name: `${chartOfAccounts.length} accounts` });
  expect(await trial.locator('tbody tr').count()).toBe(chartOfAccounts.length);
  expect(await page.getByTestId('total-debits').textContent()).toBe(await page.getByTestId('total-credits').textContent());
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await shoot(page, `ledger-${role}-${width}-1-trial-balance`);

  await ledgerNav.getByRole('link', { name: 'Accounts' }).click();
  const chart = page.getByRole('table', { name: `${chartOfAccounts.length} accounts, by code` });
  await chart.waitFor();
  for (const account of chartOfAccounts) expect(await chart.getByRole('link', { name: account.name, exact: true }).getAttribute('href')).toBe(`/audit/ledger/accounts/${account.key}`);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await shoot(page, `ledger-${role}-${width}-2-accounts`);

  await page.goto(`/audit/ledger/accounts/customer-checking?customerId=${payer._id}`);
  await page.getByRole('heading', { name: /Customer checking$/, level: 2 }).waitFor();
  const lines = page.getByRole('table', { name: /journal lines?/ });
  await lines.waitFor();
  expect(await lines.locator('tbody tr').filter({ hasText: POSTING_REASON }).count()).toBeGreaterThanOrEqual(1);
  expect(await lines.locator('tbody tr').filter({ hasText: EDIT_REASON }).count()).toBeGreaterThanOrEqual(1);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await shoot(page, `ledger-${role}-${width}-3-entries`);

  await ledgerNav.getByRole('link', { name: 'Reconciliation' }).click();
  await page.locator('.alert-success strong', { hasText: /^Reconciled$/ }).waitFor();
  const differences = await page.getByTestId('difference').allTextContents();
  expect(differences.length).toBeGreaterThanOrEqual(4);
  for (const difference of differences) expect(difference).toBe('$0.00reconciled');
  expect(await page.locator('.ledger-bad').count()).toBe(0);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await shoot(page, `ledger-${role}-${width}-4-reconciliation`);

  await ledgerNav.getByRole('link', { name: 'Day closes' }).click();
  await page.getByRole('heading', { name: 'Day closes', level: 2 }).waitFor();
  await page.locator('.ledger-table, .empty-state').first().waitFor();
  expect(await page.getByText('Out of balance').count()).toBe(0);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await shoot(page, `ledger-${role}-${width}-5-day-closes`);
}

/**
 * The ledger screens in the browser against the real server, as the admin and as an auditor, at 375 and 1280 px,
 * after an admin's balance edit and staff posting (each with a reason), an internal and an external transfer.
 */
describe('the ledger screens, for an admin and an auditor at 375 and 1280 px', () => {
  let e2e: E2eBrowser;
  let admin: { token: string; user: User };
  let auditorToken: string;
  let payer: User;
  let payee: User;
  const payerPerson: NewCustomer = newCustomer({ firstName: 'Luca', lastName: 'Pacioli' });
  const payeePerson: NewCustomer = newCustomer({ firstName: 'Benedetto', lastName: 'Cotrugli' });
  /** An instant before any of this file's movements, for the trial balance as of then. */
  let before: string;
  /** The admin's browser page, signed in once (each sign-in takes a fresh code of the authenticator). */
  let adminPage: TrackedPage | undefined;

  beforeAll(async () => {
    e2e = await launchBrowser();
    admin = await staffSession('admin');
    auditorToken = (await staffSession('auditor')).token;
    await signUpCustomer(payeePerson);
    payee = (await signInApi(payeePerson.email, payeePerson.password)).user;
    await signUpCustomer(payerPerson);
    const session = await signInApi(payerPerson.email, payerPerson.password);
    payer = session.user;
    const documents = { passport: PNG_DATA_URL, documentFront: PNG_DATA_URL, documentBack: PNG_DATA_URL, documentType: 'passport' };
    await callApi('POST', '/user/verification', { ...documents, dateOfBirth: '1985-04-12' }, session.token);
    const { firstName, lastName, email, phone, address, state } = payerPerson;
    await callApi(
      'PUT',
      `/user/admin/${payer._id}`,
      { firstName, lastName, email, phone, location: { address, state }, verificationStatus: 'verified', isBlocked: false, paymentPin: PIN },
      admin.token,
    );
    before = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 1100));
  });

  afterAll(async () => {
    await adminPage?.context.close();
    await e2e?.close();
    console.log(`ledger screenshots (${shots.length}) in ${shotsDir}:\n${shots.join('\n')}`);
  });

  it('lets the admin edit balances and add a transaction with a reason, naming the account of the other side', { timeout: 180_000 }, async () => {
    adminPage = await newPage(e2e, { viewport: viewports.desktop });
    const { page } = adminPage;
    await adminLogin(page);
    expect(await page.getByRole('main').getByRole('link', { name: 'Ledger' }).getAttribute('href')).toBe('/audit/ledger');

    await page.goto(`/admin/users/account/${payer._id}`);
    const reason = page.getByLabel('Reason (optional)');
    await reason.waitFor();
    expect(await page.getByText('The other side of this edit is booked to Staff balance adjustments.').count()).toBe(1);
    await page.getByLabel('Savings balance (USD)').fill('5000');
    await page.getByLabel('Checking balance (USD)').fill('1200');
    await reason.fill(EDIT_REASON);
    await page.getByText(`${EDIT_REASON.length} / 500 characters`).waitFor();
    await page.getByRole('button', { name: 'Save balances' }).click();
    await formOutcome(page);
    await shoot(page, 'ledger-admin-1280-0-edit-balances');

    await page.goto(`/admin/transactions/add-transactions?userId=${payer._id}`);
    await page.getByText('The other side of this edit is booked to Staff postings.').waitFor();
    await expect.poll(() => page.getByLabel('User').inputValue()).toBe(payer._id);
    await page.getByLabel('Amount (USD)').fill('250');
    await page.getByLabel('Type').selectOption('credit');
    await page.getByLabel('Account').selectOption('checking');
    await page.getByLabel('Description').fill('Goodwill');
    await page.getByLabel('Reason (optional)').fill(POSTING_REASON);
    await page.getByRole('button', { name: 'Add transaction' }).click();
    await formOutcome(page);

    // The customer's own movements: an internal transfer (transfers in transit) and an external one (ACH outbound).
    const token = (await signInApi(payerPerson.email, payerPerson.password)).token;
    const transfer = (body: Record<string, unknown>) => callApi('POST', '/transaction/transfer', { paymentPin: PIN, ...body }, token);
    await transfer({ from: 'checking', amount: 75.25, accountNumber: payee.account.number, accountType: 'savings', bankName: 'Summit Bank', to: 'Benedetto Cotrugli', description: 'Ledger lesson' });
    await transfer({ from: 'savings', amount: 120, accountNumber: '9876543210', routingNumber: OTHER_BANK_ROUTING, accountType: 'checking', bankName: 'Other Bank', to: 'Alan Turing', description: 'Rent' });

    // The books catch up: the payee's credit is journalled and everything reconciles.
    await until('the payee credit in the journal', async () => {
      const credits = await staffGet<LedgerEntry[]>(`/audit/ledger/accounts/customer-savings/entries?customerId=${payee._id}`, auditorToken);
      return credits.some((line) => line.side === 'credit');
    });
    await until('the reconciliation', async () => (await staffGet<Reconciliation>('/audit/ledger/reconciliation', auditorToken)).ok);
  });

  it('shows the admin every ledger page at 1280 and 375 px, from the navigation and the customer page', { timeout: 240_000 }, async () => {
    if (!adminPage) throw new Error('the admin did not sign in');
    const tracked = adminPage;
    const { page } = tracked;
    await page.goto('/admin/users');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Ledger' }).click();
    await page.waitForURL((url) => url.pathname === '/audit/ledger');
    await page.getByRole('heading', { name: 'Ledger', level: 1 }).waitFor();

    // The customer's page links to their journal lines.
    await page.goto(`/admin/users/${payer._id}`);
    await page.getByRole('link', { name: 'Checking journal lines' }).click();
    await page.waitForURL((url) => url.pathname === '/audit/ledger/accounts/customer-checking' && url.searchParams.get('customerId') === payer._id);
    await page.getByRole('table', { name: /journal lines?/ }).waitFor();
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download journal lines CSV' }).click()]);
    expect(csv.suggestedFilename()).toBe('ledger-customer-checking-entries.csv');

    for (const [width, viewport] of sizes) {
      await page.setViewportSize(viewport);
      await visitLedgerPages(page, 'admin', width, payer);
    }

    // The trial balance as it stood before this file's movements, replayed from the log; and its downloads.
    await page.setViewportSize(viewports.desktop);
    await page.goto('/audit/ledger');
    await page.getByLabel('As of (your local time)').fill(await localInputValue(page, before));
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('at') === before);
    await page.getByTestId('trial-balance-as-of').filter({ hasNotText: '(now)' }).waitFor();
    await page.locator('.alert-success strong', { hasText: /^Balanced$/ }).waitFor();
    await shoot(page, 'ledger-admin-1280-6-trial-balance-before');
    for (const format of ['CSV', 'PDF']) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Download trial balance ${format}` }).click()]);
      expect(download.suggestedFilename().toLowerCase()).toMatch(new RegExp(`\\.${format.toLowerCase()}$`));
    }

    // The business date: in manual mode the admin closes the day after a confirmation; in calendar mode no control.
    const date = await staffGet<BusinessDate>('/admin/business-date', admin.token);
    const advance = page.getByRole('button', { name: 'Advance the business date' });
    if (date.mode === 'manual') {
      await advance.click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`Close ${date.businessDate}?`).waitFor();
      await dialog.getByRole('button', { name: 'Close the day' }).click();
      await page.getByText(`Closed ${date.businessDate}.`, { exact: false }).waitFor({ timeout: 60_000 });
      await page.getByRole('navigation', { name: 'Ledger' }).getByRole('link', { name: 'Day closes' }).click();
      const closed = page.getByRole('row', { name: new RegExp(date.businessDate) });
      await closed.waitFor();
      expect(await closed.textContent()).toContain('Balanced');
      expect(await closed.locator('abbr').getAttribute('title')).toMatch(/^[0-9a-f]{64}$/);
      await shoot(page, 'ledger-admin-1280-7-day-closed');
    } else {
      expect(await advance.count()).toBe(0);
    }
    expectNoConsoleErrors(tracked);
  });

  it('shows the auditor every ledger page at 375 and 1280 px, with no way to move the business date', { timeout: 240_000 }, async () => {
    const tracked = await newPage(e2e, { viewport: viewports.mobile });
    const { page } = tracked;
    await page.goto('/audit/ledger');
    await page.waitForURL((url) => url.pathname === '/signin');
    await page.getByLabel('Email').fill(inject('auditorEmail'));
    await page.getByLabel('Password').fill(inject('auditorPassword'));
    await page.getByRole('button', { name: 'Login' }).click();
    await enterCode(page, inject('auditorTotpSecret'));
    await page.waitForURL((url) => url.pathname === '/audit/ledger');
    expect(await page.getByRole('navigation', { name: 'Audit' }).getByRole('link', { name: 'Ledger' }).getAttribute('aria-current')).toBe('page');

    for (const [width, viewport] of [...sizes].reverse()) {
      await page.setViewportSize(viewport);
      await visitLedgerPages(page, 'auditor', width, payer);
    }
    await page.goto('/audit/ledger');
    await page.getByTestId('business-date').waitFor();
    const adminStandsIn = inject('auditorEmail') === inject('adminEmail');
    if (!adminStandsIn) expect(await page.getByRole('button', { name: 'Advance the business date' }).count()).toBe(0);
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });
});

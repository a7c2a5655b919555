import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callApi, newCustomer, signInApi, signUpCustomer, staffSession, storeSession, TINY_PNG, type NewCustomer } from '../harness/apiHelpers';
import { enterCode } from '../admin/adminSteps';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, viewports, type E2eBrowser, type TrackedPage } from '../harness/browser';
import type { Envelope, User } from '../../src/lib/api/types';
import type { AuditEvent, BalancesAt, StaffLogEntry } from '../../src/features/audit/auditTypes';

const PNG_DATA_URL = `data:image/png;base64,${TINY_PNG.toString('base64')}`;
const PIN = '246810';
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** The opening balances the admin sets (phase 1) and the correction (phase 2, after the chosen instant). */
const OPENING = { savings: 5000, checking: 1200 };
const CORRECTION = { savings: 7777.77, checking: 2468.13 };

/** GET as the auditor, unwrapping `{data}`. */
async function audit<T>(path: string, token: string): Promise<T> {
  return (await callApi<Envelope<T>>('GET', `/audit${path}`, undefined, token)).data;
}

/**
 * The customer's events once the in-process worker has finished the transfers' second legs: polls until two reads
 * in a row agree and every requested transfer is credited.
 */
async function settledEvents(userId: string, token: string, transfers: number): Promise<AuditEvent[]> {
  let previous = -1;
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const events = await audit<AuditEvent[]>(`/users/${userId}/events`, token);
    const credited = events.filter((event) => event.type === 'TransferCredited').length;
    if (credited >= transfers && events.length === previous) return events;
    previous = events.length;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The transfers of ${userId} did not settle`);
}

/** An ISO instant as the value of an <input type="datetime-local" step="1">, in the browser's own time zone. */
function localInputValue(page: Page, iso: string): Promise<string> {
  return page.evaluate((instant) => {
    const date = new Date(instant);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  }, iso);
}

async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Against an external server without a named auditor the admin stands in (web/e2e/README.md): no refusals to check. */
const adminStandsIn = inject('auditorEmail') === inject('adminEmail');

/**
 * The auditors' screens in the browser against the real server, signed in as a user with role auditor (created by
 * globalSetup with `user:create --role auditor`): find a customer with a few dozen events, read the timeline (who
 * did what, before and after), the balance chart and its tooltips, the balances at a chosen instant, the staff log
 * with filters, the verification; and no writes for an auditor.
 */
describe('the audit screens, for a customer with a few dozen events', () => {
  let e2e: E2eBrowser;
  let tracked: TrackedPage;
  const customer: NewCustomer = newCustomer({ firstName: 'Margaret', lastName: 'Hamilton' });
  const recipient: NewCustomer = newCustomer({ firstName: 'Katherine', lastName: 'Johnson' });
  let customerUser: User;
  let adminUser: User;
  let auditorToken: string;
  let events: AuditEvent[];
  /** An instant between the two phases: after every event of the first, before every event of the second. */
  let between: string;

  beforeAll(async () => {
    e2e = await launchBrowser();
    const admin = await staffSession('admin');
    adminUser = admin.user;
    auditorToken = (await staffSession('auditor')).token;
    await signUpCustomer(recipient);
    const recipientUser = (await signInApi(recipient.email, recipient.password)).user;
    await signUpCustomer(customer);
    const session = await signInApi(customer.email, customer.password);
    customerUser = session.user;
    const id = customerUser._id;
    let address = customer.address;
    const adminEdit = (changes: Record<string, unknown>) => {
      const { firstName, lastName, email, state } = customer;
      const body = { firstName, lastName, email, phone: '+1 617 555 0142', location: { address, state }, verificationStatus: 'verified', isBlocked: false };
      return callApi('PUT', `/user/admin/${id}`, { ...body, ...changes }, admin.token);
    };

    // Phase 1: the customer's own steps, the admin's verification, opening balances, staff transactions, transfers.
    const documents = { passport: PNG_DATA_URL, documentFront: PNG_DATA_URL, documentBack: PNG_DATA_URL, documentType: 'passport' };
    await callApi('POST', '/user/verification', { ...documents, dateOfBirth: '1986-08-17' }, session.token);
    await callApi('POST', '/cards/requests', { cardType: 'cashback' }, session.token);
    await adminEdit({ paymentPin: PIN });
    await callApi('PUT', `/user/admin/account/${id}`, { ...OPENING, number: customerUser.account.number, reason: 'Opening deposit' }, admin.token);
    const staffTransactions: { _id: string }[] = [];
    for (const [index, [amount, transactionType, account, description]] of ([
      [1250, 'credit', 'savings', 'Salary March'],
      [42.1, 'debit', 'checking', 'Coffee beans'],
      [89.99, 'debit', 'checking', 'Book shop'],
      [1000, 'credit', 'checking', 'Bonus'],
      [120.5, 'debit', 'savings', 'Insurance'],
      [15, 'credit', 'checking', 'Cashback'],
      [60, 'debit', 'checking', 'Groceries'],
      [33.33, 'credit', 'savings', 'Interest'],
    ] as const).entries()) {
      const posted = await callApi<Envelope<{ _id: string }>>(
        'POST',
        `/transaction/admin/${id}`,
        { amount, transactionType, account, description, date: `2025-03-${String(index + 10)}` },
        admin.token,
      );
      staffTransactions.push(posted.data);
    }
    const transfer = (body: Record<string, unknown>) =>
      callApi('POST', '/transaction/transfer', { bankName: 'Summit Bank', routingNumber: '021000021', paymentPin: PIN, ...body }, session.token);
    const own = customerUser.account.number;
    await transfer({ from: 'savings', amount: 300, accountNumber: own, accountType: 'checking', to: 'Margaret Hamilton', description: 'To my checking' });
    const other = recipientUser.account.number;
    await transfer({ from: 'checking', amount: 75.25, accountNumber: other, accountType: 'savings', to: 'Katherine Johnson', description: 'Dinner' });
    address = '1 Apollo Way';
    const { firstName, lastName, email, state } = customer;
    await callApi('PATCH', '/user/profile', { firstName, lastName, email, phoneNumber: '+1 617 555 0142', address, state }, session.token);
    const phaseOne = await settledEvents(id, auditorToken, 2);

    // The screens ask for an instant to the second: leave a whole second between the phases.
    const lastOfPhaseOne = Math.max(...phaseOne.map((event) => Date.parse(event.time)));
    between = new Date(Math.floor(lastOfPhaseOne / 1000) * 1000 + 1000).toISOString();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(between) + 150 - Date.now())));

    // Phase 2: a reversal, a block and unblock, and the admin's correction of both balances (the last balance moves).
    const reversed = staffTransactions[2];
    if (!reversed) throw new Error('no staff transaction to reverse');
    await callApi('DELETE', `/transaction/admin/${reversed._id}`, undefined, admin.token);
    await adminEdit({ isBlocked: true });
    await adminEdit({ isBlocked: false });
    await callApi('PUT', `/user/admin/account/${id}`, { ...CORRECTION, number: customerUser.account.number, reason: 'Year-end correction' }, admin.token);
    events = await settledEvents(id, auditorToken, 2);
    const phaseTwo = events.filter((event) => !phaseOne.some((old) => old.id === event.id));
    expect(Math.min(...phaseTwo.map((event) => Date.parse(event.time)))).toBeGreaterThan(Date.parse(between));
    tracked = await newPage(e2e);
  });

  afterAll(async () => {
    await tracked?.context.close();
    await e2e?.close();
  });

  it('signs the auditor in through the guard and finds the customer by e-mail', async () => {
    const { page } = tracked;
    await page.goto('/audit');
    await page.waitForURL((url) => url.pathname === '/signin');
    await page.getByLabel('Email').fill(inject('auditorEmail'));
    await page.getByLabel('Password').fill(inject('auditorPassword'));
    await page.getByRole('button', { name: 'Login' }).click();
    // Staff sign in with a second factor: a code of the auditor's authenticator.
    await enterCode(page, inject('auditorTotpSecret'));
    await page.waitForURL((url) => url.pathname === '/audit');
    await page.getByRole('heading', { name: 'Find a customer', level: 1 }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Audit' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Customers', 'Staff log', 'Ledger', 'ACH', 'Verify', 'Security', ...(adminStandsIn ? ['Admin'] : [])]);

    await page.getByLabel('Name, e-mail or account number').fill(customer.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === customer.email);
    const row = page.getByRole('row').filter({ hasText: customer.email });
    await row.waitFor();
    expect(await page.locator('.audit-results caption').textContent()).toBe('1 customer');
    expect(await row.textContent()).toContain(customerUser.account.number);
    await screenshot(page, 'audit-01-search');
    await row.getByRole('link', { name: 'History of Margaret Hamilton' }).click();
    await page.waitForURL((url) => url.pathname === `/audit/users/${customerUser._id}`);
    await page.getByRole('heading', { name: 'Margaret Hamilton', level: 1 }).waitFor();
  });

  it('lists every event in the timeline, with the actor and the values before and after each staff edit', async () => {
    const { page } = tracked;
    expect(events.length).toBeGreaterThanOrEqual(30);
    await page.getByRole('heading', { name: `Timeline (${events.length} events)` }).waitFor();
    const items = page.locator('ol.audit-events > li');
    expect(await items.count()).toBe(events.length);
    expect(await page.locator('.audit-count').textContent()).toBe(`${events.length} of ${events.length} events`);
    // Oldest first, as the API answers.
    expect(await items.locator('.audit-event-type').allTextContents()).toEqual(events.map((event) => event.type));

    const adminLabel = `admin ${adminUser._id.slice(0, 8)}`;
    const opening = items.filter({ hasText: `Balance of savings set $0.00 → ${usd.format(OPENING.savings)} (Opening deposit)` });
    expect(await opening.count()).toBe(1);
    expect(await opening.locator('.audit-actor').textContent()).toBe(adminLabel);
    expect(await opening.getByRole('row', { name: /^savings/ }).getByRole('cell').allTextContents()).toEqual(['$0.00', usd.format(OPENING.savings)]);

    const correctionEvent = events.findLast((event) => event.type === 'BalanceAdjusted' && event.changes[0]?.field === 'savings');
    const before = correctionEvent?.changes[0]?.before;
    expect(typeof before).toBe('number');
    const correction = items.filter({ hasText: `(Year-end correction)` }).filter({ hasText: 'Balance of savings' });
    expect(await correction.locator('.audit-actor').textContent()).toBe(adminLabel);
    expect(await correction.getByRole('row', { name: /^savings/ }).getByRole('cell').allTextContents()).toEqual([
      usd.format(before as number),
      usd.format(CORRECTION.savings),
    ]);

    // The admin's profile edit: the phone before and after.
    const profile = items.filter({ has: page.locator('.audit-event-type', { hasText: /^ProfileChanged$/ }) }).filter({ has: page.locator('.audit-actor', { hasText: adminLabel }) });
    expect(await profile.getByRole('row', { name: /^phone/ }).getByRole('cell').allTextContents()).toEqual([customer.phone, '+1 617 555 0142']);
    // The customer's own edit names the customer, not staff.
    const own = items.filter({ hasText: 'Profile changed: ' }).filter({ has: page.locator('.audit-actor', { hasText: `customer ${customerUser._id.slice(0, 8)}` }) });
    expect(await own.getByRole('row', { name: /^address/ }).getByRole('cell').allTextContents()).toEqual([customer.address, '1 Apollo Way']);

    // Staff actions only.
    await page.getByLabel('Staff actions only').check();
    const staff = events.filter((event) => event.staff).length;
    await page.locator('.audit-count', { hasText: `${staff} of ${events.length} events` }).waitFor();
    expect(await items.count()).toBe(staff);
    expect(new Set(await items.locator('.audit-actor').allTextContents())).toEqual(new Set([adminLabel]));
    await page.getByLabel('Staff actions only').uncheck();
    await page.locator('.audit-count', { hasText: `${events.length} of ${events.length} events` }).waitFor();
    await screenshot(page, 'audit-02-customer');
  });

  it('draws each balance as an SVG step line; hovering a step shows the event behind it', async () => {
    const { page } = tracked;
    const chart = page.getByRole('group', { name: 'Balances over time' });
    await chart.waitFor();
    expect(await chart.evaluate((element) => element.tagName.toLowerCase())).toBe('svg');
    const steps = (field: string) => 1 + events.filter((event) => event.changes.some((change) => change.field === field)).length;
    const savingsLine = page.getByRole('group', { name: `Savings balance, ${steps('savings')} steps` });
    const checkingLine = page.getByRole('group', { name: `Checking balance, ${steps('checking')} steps` });
    expect(await savingsLine.getByRole('img').count()).toBe(steps('savings'));
    expect(await checkingLine.getByRole('img').count()).toBe(steps('checking'));

    // The last step of checking (drawn last, so on top) is the admin's correction.
    const last = events.findLast((event) => event.changes.some((change) => change.field === 'checking'));
    expect(last?.type).toBe('BalanceAdjusted');
    const point = checkingLine.getByRole('img').last();
    expect(await point.getAttribute('aria-label')).toMatch(new RegExp(`^Checking \\${usd.format(CORRECTION.checking)} on `));
    await point.hover();
    const tooltip = page.getByRole('tooltip');
    await tooltip.waitFor();
    const text = (await tooltip.textContent()) ?? '';
    expect(text).toContain(`Checking ${usd.format(CORRECTION.checking)}`);
    expect(text).toContain(`BalanceAdjusted by admin ${adminUser._id.slice(0, 8)}`);
    expect(text).toContain(last?.summary);
    expect(text).toContain('(Year-end correction)');
    expect(await point.getAttribute('aria-describedby')).toBe(await tooltip.getAttribute('id'));
    await screenshot(page, 'audit-03-chart-tooltip');

    // The first step of savings after the start: the opening deposit (the next step, +$1,250, is well above it).
    const opening = savingsLine.getByRole('img').nth(1);
    await opening.hover();
    await page.getByRole('tooltip').filter({ hasText: `Savings ${usd.format(OPENING.savings)}` }).waitFor();
    expect(await page.getByRole('tooltip').textContent()).toContain('(Opening deposit)');
    await page.mouse.move(0, 0);
    await page.getByRole('tooltip').waitFor({ state: 'detached' });
  });

  it('shows the balances at a chosen date and time, replayed as the API answers', async () => {
    const { page } = tracked;
    const panel = page.getByRole('region', { name: 'Balances at a moment' });
    const savings = panel.getByTestId('balance-at-savings');
    const checking = panel.getByTestId('balance-at-checking');
    const now = await audit<BalancesAt>(`/users/${customerUser._id}/balances`, auditorToken);
    expect(now).toMatchObject(CORRECTION);
    // Opened "now": the current balances.
    expect(await savings.textContent()).toBe(usd.format(now.savings));
    expect(await checking.textContent()).toBe(usd.format(now.checking));

    // An instant between the two phases, typed into the date-and-time field (the browser's local time).
    const then = await audit<BalancesAt>(`/users/${customerUser._id}/balances?at=${encodeURIComponent(between)}`, auditorToken);
    expect(then.savings).not.toBe(now.savings);
    expect(then.checking).not.toBe(now.checking);
    await panel.getByLabel('Date and time').fill(await localInputValue(page, between));
    await savings.filter({ hasText: usd.format(then.savings) }).waitFor();
    expect(await checking.textContent()).toBe(usd.format(then.checking));
    expect(await panel.getByRole('table').locator('caption').textContent()).toBe(`Transactions as of then (${then.transactions.length})`);
    await screenshot(page, 'audit-04-balances-at');

    // "Balances at this moment" on the opening deposit (one edit, both balances at the same instant): before any
    // staff transaction or transfer.
    const openingEvent = events.find((event) => event.type === 'BalanceAdjusted');
    if (!openingEvent) throw new Error('no opening deposit');
    const atOpening = await audit<BalancesAt>(`/users/${customerUser._id}/balances?at=${encodeURIComponent(openingEvent.time)}`, auditorToken);
    expect(atOpening).toMatchObject(OPENING);
    await page
      .locator('ol.audit-events > li')
      .filter({ hasText: '(Opening deposit)' })
      .filter({ hasText: 'Balance of savings' })
      .getByRole('button', { name: 'Balances at this moment' })
      .click();
    await savings.filter({ hasText: usd.format(atOpening.savings) }).waitFor();
    expect(await checking.textContent()).toBe(usd.format(atOpening.checking));
  });

  it('filters the staff log by staff member, action and period', async () => {
    const { page } = tracked;
    await page.getByRole('navigation', { name: 'Audit' }).getByRole('link', { name: 'Staff log' }).click();
    await page.getByRole('heading', { name: 'Staff actions', level: 1 }).waitFor();
    const table = page.locator('table.audit-log-table');
    await table.waitFor();

    await page.getByLabel('Staff member (id or e-mail)').fill(inject('adminEmail'));
    await page.getByLabel('Action', { exact: true }).fill('BalanceAdjusted');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((url) => url.searchParams.get('type') === 'BalanceAdjusted' && url.searchParams.has('actor'));
    const query = `actor=${encodeURIComponent(inject('adminEmail'))}&type=BalanceAdjusted`;
    const expected = await audit<StaffLogEntry[]>(`/log?${query}`, auditorToken);
    await table.locator('caption', { hasText: `${expected.length} staff actions, newest first` }).waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(expected.length);
    expect(new Set(await rows.locator('td[data-label="Who"]').allTextContents())).toEqual(new Set([inject('adminEmail')]));
    expect(new Set(await rows.locator('td[data-label="Action"] .audit-event-type').allTextContents())).toEqual(new Set(['BalanceAdjusted']));
    const ours = rows.filter({ has: page.getByRole('link', { name: customerUser._id.slice(0, 8), exact: true }) });
    expect(await ours.count()).toBe(4);

    // From the instant between the phases: only the correction, newest first.
    await page.getByLabel('From', { exact: true }).fill(await localInputValue(page, between));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((url) => url.searchParams.has('from'));
    await table.locator('caption', { hasText: /^2 staff actions/ }).waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.locator('td[data-label="Customer"]').allTextContents()).toEqual([customerUser._id.slice(0, 8), customerUser._id.slice(0, 8)]);
    const after = await rows.locator('td[data-label="After"]').allTextContents();
    expect(after.toSorted()).toEqual([`checking: ${CORRECTION.checking}`, `savings: ${CORRECTION.savings}`]);
    await screenshot(page, 'audit-05-staff-log');

    // Another action of the same period: the block and unblock.
    await page.getByLabel('Action', { exact: true }).fill('CustomerBlocked');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await table.locator('caption', { hasText: /^1 staff actions/ }).waitFor();
    expect(await rows.locator('td[data-label="Action"] .audit-event-type').allTextContents()).toEqual(['CustomerBlocked']);

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.waitForURL((url) => url.search === '');
    expect(await page.getByLabel('Action', { exact: true }).inputValue()).toBe('');
  });

  it('verifies the record and shows that it is intact', async () => {
    const { page } = tracked;
    await page.getByRole('navigation', { name: 'Audit' }).getByRole('link', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Verify the record', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    const result = page.locator('.audit-verify-result');
    await result.waitFor({ timeout: 30_000 });
    const text = (await result.textContent()) ?? '';
    expect(text).toMatch(/The record is intact: \d+ events in \d+ streams, \d+ balances and \d+ standing orders? checked\./);
    expect(Number(/intact: (\d+) events/.exec(text)?.[1])).toBeGreaterThanOrEqual(events.length);
    await page.getByRole('button', { name: 'Verify again' }).waitFor();
    await screenshot(page, 'audit-06-verify');
  });

  it.skipIf(adminStandsIn)('refuses the auditor any write, and the admin area', async () => {
    const { page } = tracked;
    const refused = await fetch(`${inject('baseUrl')}/api/user/admin/account/${customerUser._id}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${auditorToken}` },
      body: JSON.stringify({ savings: 1, checking: 1, number: customerUser.account.number }),
    });
    expect(refused.status).toBe(403);
    expect(await audit<BalancesAt>(`/users/${customerUser._id}/balances`, auditorToken)).toMatchObject(CORRECTION);

    // The admin area's guard sends a non-admin to the admin login; nothing of the admin area is shown.
    await page.goto('/admin/dashboard');
    await page.waitForURL((url) => url.pathname === '/admin/login');
    await page.getByRole('heading', { name: 'Admin Login', level: 1 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Admin' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Dashboard' }).count()).toBe(0);
    await screenshot(page, 'audit-07-admin-refused');
  });

  it('logged no console errors on the way', () => {
    expectNoConsoleErrors(tracked);
  });

  it('does not scroll sideways at 375 px', async () => {
    const mobile = await newPage(e2e, { viewport: viewports.mobile });
    const { page } = mobile;
    await storeSession(page, auditorToken, (await staffSession('auditor')).user);
    for (const [name, path, ready] of [
      ['search', `/audit?q=${encodeURIComponent(customer.email)}`, () => page.getByRole('link', { name: 'History of Margaret Hamilton' }).waitFor()],
      ['customer', `/audit/users/${customerUser._id}`, () => page.getByRole('heading', { name: `Timeline (${events.length} events)` }).waitFor()],
      ['log', '/audit/log', () => page.locator('table.audit-log-table').waitFor()],
      ['verify', '/audit/verify', () => page.getByRole('heading', { name: 'Verify the record' }).waitFor()],
    ] as const) {
      await page.goto(path);
      await ready();
      await page.waitForLoadState('networkidle');
      await expect.poll(() => sidewaysOverflow(page), { message: `${path} at 375px scrolls sideways` }).toBeLessThanOrEqual(0);
      await screenshot(page, `audit-${name}-375`);
    }
    expectNoConsoleErrors(mobile);
    await mobile.context.close();
  });
});

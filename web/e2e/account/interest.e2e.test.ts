import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, createTestRedis } from '@bank/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/lib/api/types';
import { newCustomer, storeSession, TINY_PNG } from '../harness/apiHelpers';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, viewports, type E2eBrowser } from '../harness/browser';
import { enrolStaff } from '../harness/enrolStaff';
import { startApiServer, type ApiServer } from '../harness/startApiServer';

const PNG = `data:image/png;base64,${TINY_PNG.toString('base64')}`;
const ADMIN_EMAIL = 'interest-admin@bank.test';

/**
 * Interest as a customer and an admin see it, on a server of its own whose business date moves by hand
 * (BUSINESS_DATE_MODE=manual from 2026-10-28): $10,000 in savings from the 28th accrues four days at 5.00 % —
 * 4 × 1,000,000 × 50,000 / 365,000,000 = 547.945… cents — and the close of the 31st pays $5.48, rounded half to
 * even. The portal's savings card, the interest page and the public savings page show the rate and APY the API
 * answers; the admin schedules a rate change on the Rates screen.
 */
describe('interest on savings, in the browser', () => {
  let e2e: E2eBrowser;
  let server: ApiServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  let adminToken = '';

  async function api<T>(method: string, apiPath: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
    const response = await fetch(`${server!.baseUrl}/api${apiPath}`, {
      method,
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  beforeAll(async () => {
    const database = await createTestDatabase('e2e_interest');
    const redis = await createTestRedis();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bank-e2e-interest-'));
    const adminPassword = `Admin-${randomBytes(8).toString('hex')}`;
    cleanup = async () => {
      await server?.stop();
      await database.drop().catch(() => undefined);
      await redis.clean().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    };
    server = await startApiServer({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL,
      ADMIN_PASSWORD: adminPassword,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      BUSINESS_DATE_MODE: 'manual',
      BUSINESS_DATE_START: '2026-10-28',
    });
    adminToken = (await enrolStaff(server.baseUrl, ADMIN_EMAIL, adminPassword)).token;
    e2e = await launchBrowser();
  });

  afterAll(async () => {
    await e2e?.close();
    await cleanup?.();
  });

  it('pays the month on its last day and shows the rate, the APY and the payment where the customer looks', { timeout: 150_000 }, async () => {
    const person = newCustomer();
    const signUp = await api<{ data: User }>('POST', '/auth/signup', person);
    expect(signUp.status).toBe(201);
    const user = signUp.body.data;
    const first = await api<{ token: string; user: User }>('POST', '/auth/signin', { email: person.email, password: person.password });
    await api('POST', '/user/verification', { passport: PNG, documentFront: PNG, documentBack: PNG, documentType: 'passport', dateOfBirth: '1985-02-11' }, first.body.token);

    const deposit = await api('PUT', `/user/admin/account/${user._id}`, { savings: 10_000, checking: 0, number: user.account.number, reason: 'Opening deposit at the branch' }, adminToken);
    expect(deposit.status).toBe(200);
    const advanced = await api<{ data: { businessDate: string; closed: string[] } }>('POST', '/admin/business-date/advance', { days: 4 }, adminToken);
    expect(advanced.status).toBe(200);
    expect(advanced.body.data).toEqual({ businessDate: '2026-11-01', closed: ['2026-10-28', '2026-10-29', '2026-10-30', '2026-10-31'] });

    const interest = await api<{ data: { paidThisYear: number; accruedThisMonth: number; annualRate: number; apy: number; payments: { date: string; amount: number; account: string }[] } }>(
      'GET',
      '/interest?year=2026',
      undefined,
      first.body.token,
    );
    expect(interest.status).toBe(200);
    expect(interest.body.data).toMatchObject({ annualRate: 5, apy: 5.12, paidThisYear: 5.48, accruedThisMonth: 0, payments: [{ date: '2026-10-31', amount: 5.48, account: 'savings' }] });

    for (const [viewport, width] of [
      [viewports.mobile, 375],
      [viewports.desktop, 1280],
    ] as const) {
      const tracked = await newPage(e2e, { baseURL: server!.baseUrl, viewport });
      const { page } = tracked;
      await storeSession(page, first.body.token, first.body.user);
      await page.goto('/account/home');
      const card = page.getByTestId('savings-interest');
      await card.waitFor();
      await expect.poll(() => card.textContent(), { timeout: 15_000 }).toContain('$5.48');
      const text = (await card.textContent()) ?? '';
      expect(text).toContain('5.00%');
      expect(text).toContain('5.12%');
      console.log(`screenshot: ${await screenshot(page, `interest-savings-card-${width}`)}`);

      await page.getByRole('link', { name: 'Interest details and statement' }).click();
      await page.waitForURL('**/account/interest');
      await page.getByText('2026-10-31').or(page.getByText('Oct 31, 2026')).or(page.getByText('31 Oct 2026')).first().waitFor();
      console.log(`screenshot: ${await screenshot(page, `interest-page-${width}`)}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      await page.goto('/account/savings');
      await expect.poll(async () => (await page.locator('main').textContent()) ?? '', { timeout: 15_000 }).toContain('5.12%');
      console.log(`screenshot: ${await screenshot(page, `interest-public-savings-${width}`)}`);
      expectNoConsoleErrors(tracked);
      await tracked.context.close();
    }

    // The admin schedules a change on the Rates screen; GET /rates lists it beside the rate in force.
    const tracked = await newPage(e2e, { baseURL: server!.baseUrl, viewport: viewports.desktop });
    const { page } = tracked;
    const admin = await api<{ data: User }>('GET', '/auth/user', undefined, adminToken);
    await storeSession(page, adminToken, admin.body.data);
    await page.goto('/admin/rates');
    await page.getByLabel('Rate (% a year)').fill('4.25');
    await page.getByLabel('Effective from').fill('2026-11-15');
    await page.getByRole('button', { name: /Schedule/ }).click();
    await page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: /4\.25/ }).first().waitFor();
    await expect.poll(async () => (await api<{ data: { account: string; annualRate: number; effectiveFrom: string }[] }>('GET', '/rates')).body.data, { timeout: 15_000 }).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ account: 'savings', annualRate: 5, effectiveFrom: '2026-10-28' }),
        expect.objectContaining({ account: 'savings', annualRate: 4.25, effectiveFrom: '2026-11-15' }),
      ]),
    );
    console.log(`screenshot: ${await screenshot(page, 'interest-admin-rates-1280')}`);
    // The admin navigation (eight screens, Security and Logout) fits beside the brand without a sideways scroll.
    for (const width of [900, 1024, 1280, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scroll at ${width} px`).toBe(true);
    }
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });
});

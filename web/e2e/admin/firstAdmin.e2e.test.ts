import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, createTestRedis } from '@bank/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, type E2eBrowser } from '../harness/browser';
import { startApiServer, type ApiServer } from '../harness/startApiServer';
import { freshTotpCode } from '../harness/totp';
import { waitForAdminPath } from './adminSteps';

/**
 * A fresh start of the bank (its own empty database, Redis prefix and data directory) with ADMIN_EMAIL and
 * ADMIN_PASSWORD, and nothing else set: the first admin's first sign-in in the browser leads through enrolling a
 * second factor (STAFF_SECOND_FACTOR is required by default; the TOTP key is created in DATA_DIR).
 */
describe('a fresh start with ADMIN_EMAIL / ADMIN_PASSWORD', () => {
  let e2e: E2eBrowser;
  let server: ApiServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  const admin = { email: 'first-admin@bank.test', password: `First-${randomBytes(8).toString('hex')}` };

  beforeAll(async () => {
    const database = await createTestDatabase('e2e_first_admin');
    const redis = await createTestRedis();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bank-e2e-first-admin-'));
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
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      // Nothing of the e2e run's own setting leaks in: the defaults are what is tested.
      STAFF_SECOND_FACTOR: '',
      TOTP_KEYS: '',
    });
    e2e = await launchBrowser();
  });

  afterAll(async () => {
    await e2e?.close();
    await cleanup?.();
  });

  it('leads the first admin through enrolment to the dashboard', async () => {
    const tracked = await newPage(e2e, { baseURL: server!.baseUrl });
    const { page } = tracked;
    // The server creates the admin just after it starts listening: wait until its password is known.
    await expect
      .poll(
        async () =>
          (
            await fetch(`${server!.baseUrl}/api/auth/signin`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify(admin),
            })
          ).status,
        { timeout: 30_000, interval: 500 },
      )
      .toBe(200);
    await page.goto('/admin/login');
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set up your second factor' }).waitFor();
    const secret = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/\s+/g, '');
    await page.getByLabel('Authentication code', { exact: true }).fill(await freshTotpCode(secret));
    await page.getByRole('button', { name: 'Confirm and sign in' }).click();
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    await page.getByLabel('I have saved my recovery codes').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await waitForAdminPath(page, '/admin/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await screenshot(page, 'first-admin-dashboard');
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });
});

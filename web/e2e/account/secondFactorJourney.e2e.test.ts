import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SecondFactorChallenge, SignInAnswer, User } from '../../src/lib/api/types';
import { enterCode } from '../admin/adminSteps';
import { callApi, newCustomer, signUpCustomer, staffSession, type NewCustomer } from '../harness/apiHelpers';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, viewports, type E2eBrowser, type TrackedPage } from '../harness/browser';
import { freshTotpCode } from '../harness/totp';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** Signs in through the API as another device (its own user agent); returns the token. */
async function signInAsDevice(customer: NewCustomer, userAgent: string, secret: string): Promise<string> {
  const post = async <T>(path: string, body: unknown) => {
    const response = await fetch(`${inject('baseUrl')}/api${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': userAgent },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const first = await post<SecondFactorChallenge>('/auth/signin', { email: customer.email, password: customer.password });
  return (await post<SignInAnswer>('/auth/second-factor', { challenge: first.challenge, code: await freshTotpCode(secret) })).token;
}

async function passwordStep(page: Page, customer: NewCustomer): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/**
 * A customer turns two-step sign-in on in Settings, saves the recovery codes, signs in with a code and with a
 * recovery code, sees a sign-in from a new device, ends sessions, and turns it off. Codes are computed from the
 * secret the page shows, as an authenticator app would.
 */
describe('a customer and two-step sign-in', () => {
  let e2e: E2eBrowser;
  let tracked: TrackedPage;
  let customer: NewCustomer;
  let user: User;
  let secret = '';
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    e2e = await launchBrowser();
    customer = await signUpCustomer(newCustomer({ firstName: 'Katherine', lastName: 'Johnson' }));
    // Verified, so that sign-in leads to the portal rather than to the verification form.
    const admin = await staffSession('admin');
    const found = await callApi<{ data: User }>('GET', `/user/admin/email/${encodeURIComponent(customer.email)}`, undefined, admin.token);
    user = found.data;
    await callApi(
      'PUT',
      `/user/admin/${user._id}`,
      { firstName: user.firstName, lastName: user.lastName, email: user.email, phone: user.phone, location: user.location, verificationStatus: 'verified', isBlocked: false },
      admin.token,
    );
    tracked = await newPage(e2e);
    await tracked.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: inject('baseUrl') });
  });

  afterAll(async () => {
    await tracked?.context.close();
    await e2e?.close();
  });

  it('turns it on in Settings: QR code and key, a code to confirm, ten recovery codes to copy and download', async () => {
    const { page } = tracked;
    await passwordStep(page, customer);
    await page.waitForURL((url) => url.pathname === '/account/home');
    await page.goto('/account/settings');
    await page.getByRole('link', { name: /Security/ }).click();
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
    await page.getByText('Status: Off').waitFor();
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    const qr = page.getByRole('img', { name: 'QR code to add Summit Bank to your authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    secret = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, 'second-factor-01-setup');

    await page.getByLabel('Authentication code', { exact: true }).fill('000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid code' }).waitFor();
    await page.getByLabel('Authentication code', { exact: true }).fill(await freshTotpCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();

    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
    expect(recoveryCodes).toHaveLength(10);
    expect(await page.getByRole('heading', { name: 'Save your recovery codes' }).evaluate((heading) => heading === document.activeElement)).toBe(true);
    await page.getByRole('button', { name: 'Copy codes' }).click();
    await page.getByText('Recovery codes copied').waitFor();
    expect((await page.evaluate(() => navigator.clipboard.readText())).split('\n')).toEqual(recoveryCodes);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download codes' }).click()]);
    expect(download.suggestedFilename()).toBe('summit-bank-recovery-codes.txt');
    const saved = await readFile((await download.path()) ?? '', 'utf8');
    for (const code of recoveryCodes) expect(saved).toContain(code);
    await screenshot(page, 'second-factor-02-recovery-codes');
    expect(await page.getByRole('button', { name: 'Done' }).isDisabled()).toBe(true);
    await page.getByLabel('I have saved my recovery codes').check();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Status: On').waitFor();
    await page.getByText(/10 recovery codes left/).waitFor();
  });

  it('signs in with the password and then a code', async () => {
    const { page } = tracked;
    await page.getByRole('button', { name: 'Logout' }).first().click();
    await page.waitForURL((url) => url.pathname !== '/account/security');
    await passwordStep(page, customer);
    await page.getByRole('heading', { name: 'Enter your authentication code' }).waitFor();
    await screenshot(page, 'second-factor-03-code');
    await enterCode(page, secret);
    await page.waitForURL((url) => url.pathname === '/account/home');
  });

  it('shows a sign-in from a new device in the portal until dismissed, and ends sessions from Settings', async () => {
    const { page } = tracked;
    const firefoxToken = await signInAsDevice(customer, FIREFOX_LINUX, secret);
    await page.goto('/account/home');
    const notice = page.getByRole('region', { name: 'New sign-ins' }).getByRole('status').filter({ hasText: 'New sign-in from Firefox on Linux' });
    await notice.waitFor();
    await screenshot(page, 'second-factor-04-new-device');
    await notice.getByRole('button', { name: 'Dismiss message' }).click();
    await notice.waitFor({ state: 'detached' });

    await page.goto('/account/security');
    const sessions = page.getByRole('list', { name: 'Sessions' });
    await sessions.getByText('Firefox on Linux').waitFor();
    expect(await sessions.getByText('This device').count()).toBe(1);
    await screenshot(page, 'second-factor-05-sessions');
    await sessions.getByRole('button', { name: /^Sign out Firefox on Linux/ }).click();
    await page.getByText('Signed out of Firefox on Linux').waitFor();
    await expect(callApi('GET', '/user/me', undefined, firefoxToken)).rejects.toThrow(/401/);

    const another = await signInAsDevice(customer, FIREFOX_LINUX, secret);
    await page.reload();
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out everywhere else?' });
    await dialog.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByText(/Signed out everywhere else/).waitFor();
    await expect(callApi('GET', '/user/me', undefined, another)).rejects.toThrow(/401/);
    await expect.poll(() => page.getByRole('list', { name: 'Sessions' }).getByRole('listitem').count()).toBe(1);
  });

  it('signs in with a recovery code once, and says how many are left', async () => {
    const other = await newPage(e2e, { viewport: viewports.mobile });
    const { page } = other;
    await passwordStep(page, customer);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCodes[0]!.toLowerCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('You have 9 recovery codes left.').waitFor();
    await screenshot(page, 'second-factor-06-recovery-code-375');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/account/home');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await other.context.close();
  });

  it('turns it off with the password and a current code', async () => {
    const { page } = tracked;
    await page.goto('/account/security');
    await page.getByRole('button', { name: 'Turn off two-step sign-in' }).click();
    await page.getByLabel('Password').fill(customer.password);
    await page.getByLabel('Authentication code', { exact: true }).fill(await freshTotpCode(secret));
    await page.getByRole('button', { name: 'Turn off', exact: true }).click();
    await page.getByText('Second factor turned off').waitFor();
    await page.getByText('Status: Off').waitFor();
    const answer = await callApi<SignInAnswer>('POST', '/auth/signin', { email: customer.email, password: customer.password });
    expect(answer.token).toEqual(expect.any(String));
  });

  it('logged no console errors but the refusals it provoked', () => {
    // The wrong code (422) and the checks of signed-out tokens are expected refusals.
    expectNoConsoleErrors(tracked, [/status of 422/, /status of 401/]);
  });
});

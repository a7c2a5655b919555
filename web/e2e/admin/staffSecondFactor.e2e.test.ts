import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EnrolmentSecret, SecondFactorChallenge, SignInAnswer, User } from '../../src/lib/api/types';
import { callApi, newCustomer, signInApi, signUpCustomer, staffSession, uniqueEmail } from '../harness/apiHelpers';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, type E2eBrowser, type TrackedPage } from '../harness/browser';
import { createStaffUser } from '../harness/createStaffUser';
import { freshTotpCode } from '../harness/totp';
import { enterCode, openUserByEmail, waitForAdminPath } from './adminSteps';

/**
 * A new admin (created with `npm run user:create`) is led through enrolling a second factor at the first sign-in;
 * then resets a customer's second factor with a reason, which auditors see; and finds their own sessions.
 */
describe('staff and their second factor', () => {
  let e2e: E2eBrowser;
  let tracked: TrackedPage;
  const admin = { email: uniqueEmail('new-admin'), password: `Admin-${randomBytes(8).toString('hex')}` };
  let adminSecret = '';

  beforeAll(async () => {
    e2e = await launchBrowser();
    // As an operator would: `npm run user:create -- --role admin` against the server's database.
    await createStaffUser(inject('baseUrl'), inject('cliEnv'), { role: 'admin', ...admin });
    tracked = await newPage(e2e);
  });

  afterAll(async () => {
    await tracked?.context.close();
    await e2e?.close();
  });

  it('leads a new admin through enrolment at the first sign-in: QR code, key, a code, recovery codes, then the dashboard', async () => {
    const { page } = tracked;
    await page.goto('/admin/login');
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Set up your second factor' }).waitFor();
    await page.getByRole('img', { name: 'QR code to add Summit Bank to your authenticator app' }).waitFor();
    adminSecret = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/\s+/g, '');
    expect(adminSecret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, 'staff-second-factor-01-enrol');
    // Nothing of the admin area answers yet: the browser holds no session.
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.getByLabel('Authentication code', { exact: true }).fill(await freshTotpCode(adminSecret));
    await page.getByRole('button', { name: 'Confirm and sign in' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' });
    await codes.waitFor();
    expect(await codes.getByRole('listitem').count()).toBe(10);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download codes' }).click()]);
    expect(download.suggestedFilename()).toBe('summit-bank-recovery-codes.txt');
    await page.getByLabel('I have saved my recovery codes').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await waitForAdminPath(page, '/admin/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });

  it("resets a customer's second factor with a reason, after a confirmation; auditors see who and why", async () => {
    const { page } = tracked;
    const customer = await signUpCustomer(newCustomer({ firstName: 'Dorothy', lastName: 'Vaughan' }));
    const { token } = await signInApi(customer.email, customer.password);
    const setup = await callApi<EnrolmentSecret>('POST', '/auth/second-factor/setup', {}, token);
    await callApi('POST', '/auth/second-factor/confirm', { code: await freshTotpCode(setup.secret) }, token);
    const challenge = await callApi<SecondFactorChallenge>('POST', '/auth/signin', { email: customer.email, password: customer.password });
    expect(challenge.secondFactor).toBe('totp');

    const userId = await openUserByEmail(page, customer.email);
    const panel = page.getByRole('region', { name: 'Two-step sign-in' });
    await panel.getByText('On, 10 recovery codes left').waitFor();
    await panel.getByRole('button', { name: 'Reset second factor' }).click();
    const dialog = page.getByRole('dialog', { name: /Reset Dorothy Vaughan's second factor/ });
    await dialog.getByLabel('Reason').fill('Lost phone; identity checked by a call-back');
    await screenshot(page, 'staff-second-factor-02-reset-confirm');
    await dialog.getByRole('button', { name: 'Reset second factor' }).click();
    await panel.getByText(/Second factor reset/).waitFor();
    await panel.getByText('Off: signs in with the password alone').waitFor();
    // The customer signs in with the password alone again; their old session ended.
    await expect(callApi('GET', '/user/me', undefined, token)).rejects.toThrow(/401/);
    expect((await signInApi(customer.email, customer.password)).token).toEqual(expect.any(String));
    // In the customer's timeline, for auditors: the staff act, its admin and its reason.
    const auditor = await staffSession('auditor');
    const events = await callApi<{ data: { type: string; summary: string; actor: { id: string | null } }[] }>('GET', `/audit/users/${userId}/events`, undefined, auditor.token);
    const reset = events.data.find((event) => event.type === 'SecondFactorReset');
    expect(reset?.summary).toBe('Second factor reset by staff: Lost phone; identity checked by a call-back');
    const me = await callApi<{ data: User }>('GET', '/auth/user', undefined, (await page.evaluate(() => localStorage.getItem('token'))) ?? '');
    expect(reset?.actor.id).toBe(me.data._id);
  });

  it('shows staff their own second factor (required) and sessions', async () => {
    const { page } = tracked;
    await page.getByRole('link', { name: 'Security' }).first().click();
    await waitForAdminPath(page, '/admin/security');
    await page.getByText('Status: On').waitFor();
    await page.getByText('The bank requires two-step sign-in for staff.', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Turn off two-step sign-in' }).count()).toBe(0);
    await page.getByRole('list', { name: 'Sessions' }).getByText('This device').waitFor();
    await screenshot(page, 'staff-second-factor-03-security');
  });

  it('asks the enrolled admin for a code at the next sign-in', async () => {
    const other = await newPage(e2e);
    const { page } = other;
    await page.goto('/admin/login');
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await enterCode(page, adminSecret);
    await waitForAdminPath(page, '/admin/dashboard');
    await other.context.close();
  });

  it('logged no console errors', () => {
    expectNoConsoleErrors(tracked);
  });

  it('every answer of the API about it is in the contract’s shape', async () => {
    const answer = await callApi<SignInAnswer | SecondFactorChallenge>('POST', '/auth/signin', { email: admin.email, password: admin.password });
    expect(answer).toEqual({ message: 'Second factor required', secondFactor: 'totp', challenge: expect.any(String) });
  });
});

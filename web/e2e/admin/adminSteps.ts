import type { Dialog, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { freshTotpCode } from '../harness/totp';
import '../harness/providedContext';

/** Steps of the admin's side of the journeys, through the admin UI. */

export async function waitForAdminPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout: 15_000 });
}

export interface SeenDialog {
  readonly type: string;
  readonly message: string;
}

/**
 * Runs `action` while answering the browser's native dialogs (window.confirm / window.alert) in order with
 * `answers`, and resolves with the dialogs seen once as many as there are answers have opened. A dialog beyond the
 * answers is dismissed and still reported, so the caller's expectation on the list catches it.
 */
export async function answerDialogs(page: Page, answers: readonly ('accept' | 'dismiss')[], action: () => Promise<void>): Promise<SeenDialog[]> {
  const seen: SeenDialog[] = [];
  const handler = (dialog: Dialog) => {
    const answer = answers[seen.length] ?? 'dismiss';
    seen.push({ type: dialog.type(), message: dialog.message() });
    void (answer === 'accept' ? dialog.accept() : dialog.dismiss()).catch(() => undefined);
  };
  page.on('dialog', handler);
  try {
    await action();
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(answers.length);
  } finally {
    page.off('dialog', handler);
  }
  return seen;
}

/** The second step of a sign-in: a fresh code of the enrolled secret, typed as from the authenticator app. */
export async function enterCode(page: Page, secret: string): Promise<void> {
  const field = page.getByLabel('Authentication code', { exact: true });
  await field.waitFor();
  await field.fill(await freshTotpCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** /admin/login with the admin the server created from ADMIN_EMAIL (password, then a code); lands on the dashboard. */
export async function adminLogin(page: Page): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('E-mail').fill(inject('adminEmail'));
  await page.getByLabel('Password').fill(inject('adminPassword'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await enterCode(page, inject('adminTotpSecret'));
  // A guard's `from` may send the admin back to another admin page; the journeys start from the dashboard.
  await page.waitForURL((url) => url.pathname.startsWith('/admin/') && url.pathname !== '/admin/login', { timeout: 15_000 });
  if (new URL(page.url()).pathname !== '/admin/dashboard') await page.goto('/admin/dashboard');
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

/** /admin/users: searches by e-mail and opens the customer's detail page; returns their id. */
export async function openUserByEmail(page: Page, email: string): Promise<string> {
  await page.goto('/admin/users');
  await page.getByLabel('Search users').fill(email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const row = page.getByRole('row').filter({ hasText: email });
  await row.waitFor();
  await row.getByRole('link', { name: /^View / }).click();
  await page.waitForURL(/\/admin\/users\/[0-9a-f-]{36}$/);
  const id = new URL(page.url()).pathname.split('/').at(-1) ?? '';
  // The list stays until the user's screen has loaded (navigations are transitions).
  await page.getByRole('table', { name: 'Users' }).waitFor({ state: 'detached' });
  await page.getByRole('heading', { level: 1 }).waitFor();
  return id;
}

/**
 * The message a submitted form shows (the in-page Alert): its text when it is a success, an Error with the
 * server's words when it is a refusal, so a failing journey says why.
 */
export async function formOutcome(page: Page): Promise<string> {
  const message = page.locator('main .alert').first();
  await message.waitFor({ timeout: 15_000 });
  const text = (await message.textContent())?.replace(/×$/, '').trim() ?? '';
  if ((await message.getAttribute('role')) === 'alert') throw new Error(`The form was refused: ${text}`);
  return text;
}

/** /admin/users/account/:id: sets both balances (the account number stays). */
export async function setBalances(page: Page, userId: string, savings: string, checking: string, reason = 'Opening deposit'): Promise<void> {
  await page.goto(`/admin/users/account/${userId}`);
  await page.getByLabel('Savings balance (USD)').fill(savings);
  await page.getByLabel('Checking balance (USD)').fill(checking);
  await page.getByLabel('Reason (optional)').fill(reason);
  await page.getByRole('button', { name: 'Save balances' }).click();
  await formOutcome(page);
}

/** /admin/users/edit/:id: verification status and a new payment pin. */
export async function setStatusAndPin(page: Page, userId: string, status: 'awaiting' | 'pending' | 'verified' | 'failed', pin: string): Promise<void> {
  await page.goto(`/admin/users/edit/${userId}`);
  await page.getByLabel('Verification status').selectOption(status);
  await page.getByLabel('New payment pin').fill(pin);
  await page.getByRole('button', { name: 'Save user' }).click();
  await formOutcome(page);
  await expect.poll(() => page.getByLabel('New payment pin').inputValue()).toBe('');
}

/** The admin layout's Logout, back to /admin/login. */
export async function adminLogout(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('button', { name: 'Logout' }).click();
  await waitForAdminPath(page, '/admin/login');
}

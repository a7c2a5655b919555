import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { TINY_PNG, type NewCustomer } from '../harness/apiHelpers';

/** Steps of the customer's side of the journeys, driven through the UI the way a person would. */

/**
 * Waits until the page's address is `path` (ignores the query). The router renders a navigation in a transition, so
 * the address changes before the new screen replaces the old one: before using a field that the old screen has too
 * (Email on /signin and /forgot-password), wait for something only the new screen shows, such as its heading.
 */
export async function waitForPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout: 15_000 });
}

/** /signup: fills Create Your Account and submits; the app signs the newcomer in and opens the verification. */
export async function signUpThroughUi(page: Page, customer: NewCustomer): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('First name', { exact: true }).fill(customer.firstName);
  await page.getByLabel('Last name', { exact: true }).fill(customer.lastName);
  await page.getByLabel('Email', { exact: true }).fill(customer.email);
  await page.getByLabel('Phone', { exact: true }).fill(customer.phone);
  await page.getByLabel('Password', { exact: true }).fill(customer.password);
  await page.getByLabel('Repeat password', { exact: true }).fill(customer.password);
  await page.getByLabel('House address', { exact: true }).fill(customer.address);
  await page.getByLabel('State', { exact: true }).selectOption(customer.state);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await waitForPath(page, '/account-verification');
}

/** /account-verification: passport photo, document front, date of birth; lands on /account/home. */
export async function completeVerificationThroughUi(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Complete Your Account Setup' }).waitFor();
  const image = (name: string) => ({ name, mimeType: 'image/png', buffer: TINY_PNG });
  await page.getByLabel('Passport photo').setInputFiles(image('passport.png'));
  await page.getByLabel('Document front').setInputFiles(image('front.png'));
  await page.getByLabel('Date of birth').fill('1990-05-17');
  await page.getByRole('button', { name: 'Submit for Verification' }).click();
  await waitForPath(page, '/account/home');
}

/** /signin: Login to Your Account. */
export async function signInThroughUi(page: Page, email: string, password: string): Promise<void> {
  if (new URL(page.url()).pathname !== '/signin') await page.goto('/signin');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
}

/** The balance cards of /account/home, once the reloaded user shows `savings` (formatted, e.g. "$500.00"). */
export async function expectHomeBalances(page: Page, savings: string, checking: string): Promise<void> {
  if (new URL(page.url()).pathname !== '/account/home') await page.goto('/account/home');
  await expect.poll(() => page.getByTestId('savings-balance').textContent(), { timeout: 10_000 }).toBe(savings);
  await expect.poll(() => page.getByTestId('checking-balance').textContent(), { timeout: 10_000 }).toBe(checking);
}

/** The sidebar's Logout (wide screens), then the sign-in page. */
export async function logOutFromSidebar(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Customer area' }).getByRole('button', { name: 'Logout', exact: true }).click();
  await waitForPath(page, '/signin');
}

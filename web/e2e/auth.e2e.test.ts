import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, newCustomer, readSession, signInApi, signUpCustomer, storeSession, TINY_PNG } from './harness/apiHelpers';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, viewports, type E2eBrowser } from './harness/browser';
import type { User } from '../src/lib/api/types';

describe('sign-up, sign-in and verification against the API', () => {
  let e2e: E2eBrowser;
  beforeAll(async () => {
    e2e = await launchBrowser();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it("says 'Passwords do not match' and sends nothing when the passwords differ", async () => {
    const tracked = await newPage(e2e, { viewport: viewports.mobile });
    const { page } = tracked;
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/')) calls.push(request.url());
    });
    const person = newCustomer();
    await page.goto('/signup');
    await page.getByLabel('First name').fill(person.firstName);
    await page.getByLabel('Last name').fill(person.lastName);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Phone').fill(person.phone);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByLabel('Repeat password').fill(`${person.password}x`);
    await page.getByLabel('House address').fill(person.address);
    await page.getByLabel('State').selectOption(person.state);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await screenshot(page, 'signup-mismatch-375');
    expect(calls).toEqual([]);
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('signs up, lands on verification signed in, uploads the documents and goes to /account/home as pending', async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    const person = newCustomer({ firstName: 'Katherine', lastName: 'Johnson' });
    await page.goto('/signup');
    await page.getByLabel('First name').fill(person.firstName);
    await page.getByLabel('Last name').fill(person.lastName);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Phone').fill(person.phone);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByLabel('Repeat password').fill(person.password);
    await page.getByLabel('House address').fill(person.address);
    await page.getByLabel('State').selectOption(person.state);
    const [signup] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/auth/signup')),
      page.getByRole('button', { name: 'Create Account' }).click(),
    ]);
    expect(signup.status()).toBe(201);
    await page.waitForURL('**/account-verification');
    await page.getByRole('heading', { level: 1, name: 'Complete Your Account Setup' }).waitFor();
    const session = await readSession(page);
    expect(session.token).toBeTruthy();
    expect(session.user?.email).toBe(person.email.toLowerCase());
    expect(session.user?.verificationStatus).toBe('awaiting');

    // Client-side checks first: nothing chosen yet.
    await page.getByRole('button', { name: 'Submit for Verification' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('All fields are required');

    await page.getByLabel('Passport photo').setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: TINY_PNG });
    await page.getByAltText('Preview of passport photo').waitFor();
    await page.getByLabel('Document front').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: TINY_PNG });
    await page.getByAltText('Preview of document front').waitFor();
    await page.getByLabel('Document type').selectOption('driver-license');
    await page.getByLabel('Date of birth').fill('1990-04-12');
    await screenshot(page, 'verification-filled-1280');
    const [upload] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/user/verification')),
      page.getByRole('button', { name: 'Submit for Verification' }).click(),
    ]);
    expect(upload.status()).toBeLessThan(300);
    await page.waitForURL('**/account/home');

    const me = await callApi<{ data: User }>('GET', '/user/me', undefined, session.token ?? '');
    expect(me.data.verificationStatus).toBe('pending');
    expect(me.data.verification?.documentType).toBe('driver-license');
    expect((await readSession(page)).user?.verificationStatus).toBe('pending');
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('refuses a document over 10MB in the browser', async () => {
    const person = await signUpCustomer();
    const { token, user } = await signInApi(person.email, person.password);
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await storeSession(page, token, user);
    await page.goto('/account-verification');
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(10 * 1024 * 1024)]);
    await page.getByLabel('Document front').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
    await page.getByText('File size must be less than 10MB').waitFor();
    expect(await page.getByAltText('Preview of document front').count()).toBe(0);
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('shows the wrong-password message in a red banner that disappears after 3 seconds', async () => {
    const person = await signUpCustomer();
    const tracked = await newPage(e2e, { viewport: viewports.tablet });
    const { page } = tracked;
    await page.goto('/signin');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill('not-the-password');
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/auth/signin')),
      page.getByRole('button', { name: 'Login' }).click(),
    ]);
    expect(answer.status()).toBe(401);
    const serverMessage = ((await answer.json()) as { message: string }).message;
    const banner = page.getByRole('alert');
    await banner.waitFor();
    const shownAt = Date.now();
    expect(await banner.textContent()).toContain(serverMessage);
    expect(await banner.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(180, 35, 24)');
    await screenshot(page, 'signin-wrong-password-768');
    await banner.waitFor({ state: 'detached', timeout: 5000 });
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThan(2500);
    expect(shownFor).toBeLessThan(4500);
    expect(page.url()).toMatch(/\/signin$/);
    // Chromium logs the refused request (401) itself; nothing else may be logged.
    expectNoConsoleErrors(tracked, [/status of 401/]);
    await tracked.context.close();
  });

  it('signs a customer awaiting verification in and sends them to /account-verification', async () => {
    const person = await signUpCustomer();
    const tracked = await newPage(e2e, { viewport: viewports.mobile });
    const { page } = tracked;
    await page.goto('/signin');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/account-verification');
    await page.getByRole('heading', { level: 1, name: 'Complete Your Account Setup' }).waitFor();
    expect((await readSession(page)).token).toBeTruthy();
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('sends a visitor without a session from /account-verification to /signin', async () => {
    const tracked = await newPage(e2e);
    const { page } = tracked;
    await page.goto('/account-verification');
    await page.waitForURL('**/signin');
    await page.getByRole('heading', { level: 1, name: 'Login to Your Account' }).waitFor();
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSmtpTestServer, type SmtpTestServer } from '@bank/mail/testing';
import { createTestDatabase, createTestRedis, freeTcpPort } from '@bank/testkit';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/lib/api/types';
import { newCustomer, TINY_PNG } from '../harness/apiHelpers';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, viewports, type E2eBrowser } from '../harness/browser';
import { startApiServer, type ApiServer } from '../harness/startApiServer';
import { freshTotpCode } from '../harness/totp';
import { waitForPath } from './customerSteps';

const PNG = `data:image/png;base64,${TINY_PNG.toString('base64')}`;

/** One message the bank sent, as the SMTP server received it and `mailparser` read it. */
interface ReceivedMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly messageId: string;
}

function received(mail: ParsedMail): ReceivedMail {
  const to = mail.to ? (Array.isArray(mail.to) ? mail.to : [mail.to]).map((address) => address.text).join(', ') : '';
  return { to, subject: mail.subject ?? '', text: mail.text ?? '', html: typeof mail.html === 'string' ? mail.html : '', messageId: mail.messageId ?? '' };
}

/** The messages to `to` whose subject matches, in the order they arrived. */
function messagesTo(smtp: SmtpTestServer, to: string, subject: RegExp): ReceivedMail[] {
  return smtp.received.map(received).filter((mail) => mail.to.toLowerCase().includes(to.toLowerCase()) && subject.test(mail.subject));
}

/** Waits for the first message to `to` whose subject matches. */
async function waitForMail(smtp: SmtpTestServer, to: string, subject: RegExp): Promise<ReceivedMail> {
  await expect.poll(() => messagesTo(smtp, to, subject).length, { timeout: 30_000, interval: 200, message: `a message to ${to}, subject ${subject}` }).toBeGreaterThan(0);
  return messagesTo(smtp, to, subject)[0]!;
}

/** The one link of a message to `pagePath` on the bank's APP_ORIGIN, from its text part. */
function linkIn(message: ReceivedMail, origin: string, pagePath: string): string {
  const escaped = `${origin}${pagePath}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`${escaped}\\?token=[A-Za-z0-9_-]+`).exec(message.text)?.[0];
  expect(found, `a ${pagePath} link in:\n${message.text}`).toBeDefined();
  return found!;
}

/**
 * Forgot password, through the mail: a server of its own sends through a real SMTP server in this process
 * (`smtp-server`, read with `mailparser`), its links on its own origin (APP_ORIGIN). A customer goes from "Forgot
 * password?" to the reset link in the message, chooses a new password, and signs in with it; the link then works no
 * more. The confirmation link of the sign-up message ends the portal's banner.
 */
describe('a forgotten password, reset through the e-mail the bank sends', () => {
  let e2e: E2eBrowser;
  let smtp: SmtpTestServer;
  let server: ApiServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  let origin = '';

  async function api<T>(method: string, apiPath: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
    const response = await fetch(`${origin}/api${apiPath}`, {
      method,
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  const confirmations = (email: string) => messagesTo(smtp, email, /^Confirm your e-mail address/);

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    const database = await createTestDatabase('e2e_mail');
    const redis = await createTestRedis();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bank-e2e-mail-'));
    cleanup = async () => {
      await server?.stop();
      await smtp.stop();
      await database.drop().catch(() => undefined);
      await redis.clean().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    };
    const port = await freeTcpPort();
    origin = `http://127.0.0.1:${port}`;
    server = await startApiServer(
      {
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        JWT_SECRET: randomBytes(32).toString('hex'),
        ADMIN_EMAIL: 'mail-admin@bank.test',
        ADMIN_PASSWORD: `Admin-${randomBytes(8).toString('hex')}`,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        SMTP_URL: smtp.url,
        APP_ORIGIN: origin,
        MAIL_FROM: 'Summit Bank <no-reply@summitbank.example>',
      },
      { port },
    );
    e2e = await launchBrowser();
  });

  afterAll(async () => {
    await e2e?.close();
    await cleanup?.();
  });

  it('goes from "Forgot password?" through the link in the message to a sign-in with the new password', { timeout: 120_000 }, async () => {
    const person = newCustomer();
    const signUp = await api<{ data: User }>('POST', '/auth/signup', person);
    expect(signUp.status).toBe(201);
    const accountNumber = signUp.body.data.account.number;
    const first = await api<{ token: string }>('POST', '/auth/signin', { email: person.email, password: person.password });
    await api('POST', '/user/verification', { passport: PNG, documentFront: PNG, documentBack: PNG, documentType: 'passport', dateOfBirth: '1985-02-11' }, first.body.token);

    // Forgot password? → the form → the answer page.
    const tracked = await newPage(e2e, { baseURL: origin, viewport: viewports.desktop });
    const { page } = tracked;
    await page.goto('/signin');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await waitForPath(page, '/forgot-password');
    // The router changes the address before the lazily loaded page replaces the sign-in form, which has an Email
    // field too: wait for the new page's own heading so that the address goes into the right form.
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(person.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    console.log(`screenshot: ${await screenshot(page, 'forgot-password-sent-1280')}`);
    expect(await page.getByRole('status').first().textContent()).toContain('If an account exists for this e-mail, we have sent a link to reset your password');

    // The message as the SMTP server received it.
    const reset = await waitForMail(smtp, person.email, /^Reset your .* password$/);
    console.log(`The reset message's text part, as the SMTP server received it:\n${reset.text}`);
    expect(reset.messageId).toMatch(/^<passwordReset\.[^@]+@[^>]+>$/);
    expect(reset.html).toContain('/reset-password?token=');
    expect(reset.text).not.toContain(accountNumber);
    expect(reset.html).not.toContain(accountNumber);
    const link = linkIn(reset, origin, '/reset-password');

    // The reset page, at 375 and 1280 px, with no sideways scrolling.
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    for (const viewport of [viewports.mobile, viewports.desktop]) {
      await page.setViewportSize(viewport);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `the reset page scrolls sideways at ${viewport.width}px`).toBeLessThanOrEqual(0);
      console.log(`screenshot: ${await screenshot(page, `reset-password-${viewport.width}`)}`);
    }

    // A weak password is refused before anything is sent; then the new password.
    const newPassword = `new-${randomBytes(4).toString('hex')}`;
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('short');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('New password must be at least 6 characters').waitFor();
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('heading', { name: 'Your password has been changed' }).waitFor();
    expect(await page.getByRole('status').first().textContent()).toContain('Password reset successfully');

    // The notice that the password changed; the old session and the old password are over.
    const notice = await waitForMail(smtp, person.email, /password was changed/);
    expect(notice.messageId).toMatch(/^<passwordChanged\.[^@]+@[^>]+>$/);
    expect((await api('GET', '/auth/user', undefined, first.body.token)).status).toBe(401);
    expect((await api('POST', '/auth/signin', { email: person.email, password: person.password })).status).toBe(401);

    // Sign in with the new password: the portal, with the banner asking to confirm the address.
    await page.getByRole('link', { name: 'Sign in' }).click();
    await waitForPath(page, '/signin');
    await page.getByRole('heading', { level: 1, name: 'Login to Your Account' }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Login' }).click();
    await waitForPath(page, '/account/home');
    const banner = page.getByRole('region', { name: 'Confirm your e-mail address' });
    await banner.waitFor();
    await page.setViewportSize(viewports.mobile);
    await banner.getByRole('button', { name: 'Send again' }).click();
    await banner.getByText('We have sent a new link to your e-mail address').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    console.log(`screenshot: ${await screenshot(page, 'portal-confirm-email-banner-375')}`);

    // Settings → Notifications against the real server: a switch saved, still off after a reload; security locked.
    await page.goto('/account/settings');
    await page.getByRole('main').getByRole('link', { name: /Notifications/ }).click();
    await waitForPath(page, '/account/notifications');
    await page.getByRole('switch', { name: /Money received/ }).click();
    await page.getByText('Money received: off. Saved.').waitFor();
    await page.reload();
    await page.getByRole('switch', { name: /Money received/ }).waitFor();
    expect(await page.getByRole('switch', { name: /Money received/ }).isChecked()).toBe(false);
    expect(await page.getByRole('switch', { name: /Password changed/ }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: /Password changed/ }).isDisabled()).toBe(true);
    console.log(`screenshot: ${await screenshot(page, 'notifications-375')}`);
    await page.setViewportSize(viewports.desktop);

    // The reset link works once.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('another-password');
    await page.getByLabel('Confirm new password').fill('another-password');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Invalid or expired link');

    // The confirmation link of the sign-up message confirms the address; the banner goes.
    await expect.poll(() => confirmations(person.email).length, { timeout: 30_000 }).toBe(2);
    await page.goto(linkIn(confirmations(person.email).at(-1)!, origin, '/verify-email'));
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    await page.getByRole('link', { name: 'Go to your account' }).click();
    await waitForPath(page, '/account/home');
    // The URL changes before the portal's page replaces this one (react-router renders a navigation as a transition,
    // and the portal's code may still be loading), and this page's own card is a region of the same name: count
    // the banners once the portal's Overview shows and the confirmation page has gone.
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor({ state: 'detached' });
    expect(await banner.count()).toBe(0);

    // Each message once: one reset, one notice, the sign-up's confirmation and the one sent again.
    const to = (subject: RegExp) => messagesTo(smtp, person.email, subject);
    expect([to(/^Reset your/).length, to(/password was changed/).length, confirmations(person.email).length]).toEqual([1, 1, 2]);
    // The browser logs the refused link (400) and the revoked session's answers; nothing else.
    expectNoConsoleErrors(tracked, [/status of 400/, /status of 401/]);
    await tracked.context.close();
  });

  it('asks a customer with two-step sign-in for a code, refuses a wrong one, and resets with a recovery code', { timeout: 120_000 }, async () => {
    const person = newCustomer();
    expect((await api('POST', '/auth/signup', person)).status).toBe(201);
    const session = await api<{ token: string }>('POST', '/auth/signin', { email: person.email, password: person.password });
    const setup = await api<{ secret: string }>('POST', '/auth/second-factor/setup', {}, session.body.token);
    const confirmed = await api<{ recoveryCodes: string[] }>('POST', '/auth/second-factor/confirm', { code: await freshTotpCode(setup.body.secret) }, session.body.token);
    expect(confirmed.status).toBe(200);
    const recoveryCode = confirmed.body.recoveryCodes[0]!;

    expect((await api('POST', '/auth/forgot-password', { email: person.email })).status).toBe(202);
    const reset = await waitForMail(smtp, person.email, /^Reset your .* password$/);

    const tracked = await newPage(e2e, { baseURL: origin, viewport: viewports.mobile });
    const { page } = tracked;
    await page.goto(linkIn(reset, origin, '/reset-password'));
    const newPassword = `new-${randomBytes(4).toString('hex')}`;
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('Your account uses two-step sign-in').waitFor();
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('That code is not valid').waitFor();
    console.log(`screenshot: ${await screenshot(page, 'reset-password-code-375')}`);
    // The refused code changed nothing: the old password still signs in (to its second step).
    expect((await api('POST', '/auth/signin', { email: person.email, password: person.password })).status).toBe(200);

    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recoveryCode);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('heading', { name: 'Your password has been changed' }).waitFor();
    expect((await api('POST', '/auth/signin', { email: person.email, password: person.password })).status).toBe(401);
    const second = await api<{ challenge?: string }>('POST', '/auth/signin', { email: person.email, password: newPassword });
    expect(second.status).toBe(200);
    expect(second.body.challenge).toBeDefined();
    expectNoConsoleErrors(tracked, [/status of 401/]);
    await tracked.context.close();
  });
});

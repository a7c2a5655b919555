import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPages } from '../src/features/public/publicPages';
import type { User } from '../src/lib/api/types';
import { callApi, signInApi, signUpCustomer, staffSession, storeSession, TINY_PNG } from './harness/apiHelpers';
import { launchBrowser, newPage, viewports, type E2eBrowser } from './harness/browser';

/** What fails the scan: WCAG 2.1 AA problems axe rates serious or critical. */
const BLOCKING = new Set(['serious', 'critical']);

interface Finding {
  readonly view: string;
  readonly rule: string;
  readonly impact: string;
  readonly targets: string[];
}

/** Waits for the screen to settle: its heading shown, no loading block, no request in flight. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.locator('h1').first().waitFor({ state: 'attached', timeout: 15_000 });
  await page.waitForFunction(() => document.querySelector('.loading-block, [role="status"].spinner') === null, undefined, { timeout: 15_000 }).catch(() => undefined);
}

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA, best practices, and label-content-name-mismatch) on the page shown. With
 * axe.run in the page itself (legacy mode: the app has no frames for axe's per-frame runs to reach) and only the
 * violations gathered, a scan took 0.6–1.2 s instead of 1.3–3.4 s on a quiet 2-core host (2 December): the default
 * runs axe in each frame, then opens a blank page, injects axe into it again and finishes the run there.
 */
async function scan(page: Page, view: string): Promise<Finding[]> {
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] })
    .analyze();
  return results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .map((violation) => ({ view, rule: violation.id, impact: violation.impact ?? '', targets: violation.nodes.map((node) => node.target.join(' ')) }));
}

/** The findings, one line each, for the failure message. */
function report(findings: readonly Finding[]): string {
  return `serious or critical violations:\n${findings.map((f) => `  ${f.view}: ${f.rule} (${f.impact}) at ${f.targets.join(', ')}`).join('\n')}\n`;
}

/**
 * Scans each path in turn in one page of one browser context (at one width, with one session or none): the app's
 * scripts load from the context's cache after the first path, and the session is stored once. A context per path,
 * each signing in through the home page first, made this file a third of the browser tests' time.
 */
async function scanEach(e2e: E2eBrowser, paths: readonly string[], width: number, session?: { token: string; user: User }): Promise<Finding[]> {
  const findings: Finding[] = [];
  const tracked = await newPage(e2e, { viewport: { width, height: 900 } });
  try {
    if (session) await storeSession(tracked.page, session.token, session.user);
    for (const path of paths) {
      await tracked.page.goto(path);
      await settle(tracked.page);
      const reached = new URL(tracked.page.url());
      expect(`${reached.pathname}${reached.search}`, `${path} stayed where it was asked`).toBe(path);
      findings.push(...(await scan(tracked.page, `${path} at ${width} px`)));
    }
  } finally {
    await tracked.context.close();
  }
  return findings;
}

const PNG = `data:image/png;base64,${TINY_PNG.toString('base64')}`;

/**
 * Every route as each role sees it, scanned with axe-core in the browser tests' Chromium: the public site at 375 and
 * 1280 px, the customer area, the admin area, the audit screens and the ledger's (375 and 1280 px). Any serious or
 * critical violation fails.
 */
describe('accessibility (axe-core, WCAG 2.1 AA)', () => {
  let e2e: E2eBrowser;
  let customer: { token: string; user: User };
  let admin: { token: string; user: User };
  let auditor: { token: string; user: User };

  beforeAll(async () => {
    e2e = await launchBrowser();
    const person = await signUpCustomer();
    customer = await signInApi(person.email, person.password);
    await callApi('POST', '/user/verification', { passport: PNG, documentFront: PNG, documentBack: PNG, documentType: 'passport', dateOfBirth: '1985-02-11' }, customer.token);
    admin = await staffSession('admin');
    auditor = await staffSession('auditor');
  });

  afterAll(async () => {
    await e2e?.close();
  });

  it.each([viewports.mobile.width, viewports.desktop.width])('the public site at %i px', { timeout: 300_000 }, async (width) => {
    const paths = [...publicPages.map((page) => page.path), '/reset-password?token=preview', '/verify-email', '/no/such/page', '/admin/login'];
    const findings = await scanEach(e2e, paths, width);
    expect(findings, report(findings)).toEqual([]);
  });

  it('the customer area', { timeout: 300_000 }, async () => {
    const paths = ['/account/home', '/account/transactions', '/account/statements', '/account/interest', '/account/support', '/account/cards', '/account/profile', '/account/transfer', '/account/info', '/account/settings', '/account/update-account', '/account/update-password', '/account/beneficiaries', '/account/security', '/account/notifications'];
    const findings = await scanEach(e2e, paths, viewports.desktop.width, customer);
    expect(findings, report(findings)).toEqual([]);
  });

  it('the admin area', { timeout: 300_000 }, async () => {
    const id = customer.user._id;
    const paths = ['/admin/dashboard', '/admin/users', `/admin/users/${id}`, `/admin/users/account/${id}`, `/admin/users/edit/${id}`, '/admin/contacts', '/admin/transactions/add-transactions', `/admin/transactions/${id}`, '/admin/beneficiaries', '/admin/rates', '/admin/security'];
    const findings = await scanEach(e2e, paths, viewports.desktop.width, admin);
    expect(findings, report(findings)).toEqual([]);
  });

  it('the audit screens', { timeout: 300_000 }, async () => {
    const paths = ['/audit', `/audit/users/${customer.user._id}`, '/audit/log', '/audit/verify', '/audit/security', '/audit/ach'];
    const findings = await scanEach(e2e, paths, viewports.desktop.width, auditor);
    expect(findings, report(findings)).toEqual([]);
  });

  // As the admin, who also sees the business date's advance in manual mode, Build file now and the ACH uploads.
  it.each([viewports.mobile.width, viewports.desktop.width])('the ledger and ACH screens at %i px', { timeout: 300_000 }, async (width) => {
    const paths = ['/audit/ledger', '/audit/ledger/accounts', '/audit/ledger/accounts/customer-savings', '/audit/ledger/reconciliation', '/audit/ledger/days', '/audit/ach', '/audit/ach/upload'];
    const findings = await scanEach(e2e, paths, width, admin);
    expect(findings, report(findings)).toEqual([]);
  });
});

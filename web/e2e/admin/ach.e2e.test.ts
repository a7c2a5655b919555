import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOutboundFile, describeReturnReason, parseNachaFile, type EntryDetail } from '@bank/domain/ach';
import { adminLogin } from './adminSteps';
import { callApi, newCustomer, signInApi, signUpCustomer, staffSession, storeSession, TINY_PNG, type NewCustomer } from '../harness/apiHelpers';
import { expectNoConsoleErrors, launchBrowser, newPage, screenshot, viewports, type E2eBrowser, type TrackedPage } from '../harness/browser';
import type { Envelope, Transaction, User } from '../../src/lib/api/types';
import type { AchFileDetail, AchFileSummary } from '../../src/features/ach/achTypes';

const PNG_DATA_URL = `data:image/png;base64,${TINY_PNG.toString('base64')}`;
const PIN = '246810';
/** The other bank (RDFI) of the customer's external transfer: a routing number that passes the ABA check digit. */
const OTHER_BANK_ROUTING = '021000021';
/** The ACH operator that forwards the returns to us (the Federal Reserve): the returns file's origin. */
const OPERATOR_ROUTING = '011000015';
const AMOUNT = 42.17;

async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Polls `check` every 250 ms until it answers true (the projector and the ACH cycle run on their own). */
async function until(what: string, check: () => Promise<boolean>, attempts = 80): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/**
 * The returns file the RDFI's answer comes back in, through the operator: one return (21 for a checking credit, 31
 * for savings) of `original` with reason R01, naming its trace number; addressed to our routing number.
 */
function returnsFileFor(original: EntryDetail, bankRoutingNumber: string): string {
  const sequence = 1 + (Date.now() % 9_000_000);
  return buildOutboundFile(
    [
      {
        transactionCode: original.transactionCode === 32 ? 31 : 21,
        rdfiRoutingNumber: bankRoutingNumber,
        accountNumber: original.accountNumber,
        amountCents: original.amountCents,
        name: original.individualName,
        individualIdentification: original.individualIdentification,
        effectiveDate: new Date().toISOString().slice(0, 10),
        returnOf: { reasonCode: 'R01', originalTraceNumber: original.traceNumber, originalReceivingDfi: original.rdfiRoutingNumber.slice(0, 8) },
      },
    ],
    {
      bankRoutingNumber: OPERATOR_ROUTING,
      bankName: 'Federal Reserve Bank',
      destinationRoutingNumber: bankRoutingNumber,
      destinationName: 'Summit Bank',
      companyIdentification: '1021000021',
      entryDescription: 'RETURN',
      createdAt: new Date().toISOString(),
      fileIdModifier: 'R',
      firstTraceSequence: sequence,
    },
  ).text;
}

/**
 * The ACH screens against the real server: a customer's external transfer waits ("Sent"); the admin builds a file
 * from the ACH area, finds the transfer among its entries, downloads the NACHA text, uploads a returns file (R01) for
 * its trace number; the customer sees "Returned: R01 Insufficient funds". Files list and file page at 1280 and 375 px.
 */
describe('the ACH screens: build, download, returns', () => {
  let e2e: E2eBrowser;
  let adminToken: string;
  let payer: User;
  let payerToken: string;
  let transferId: string;
  let fileId: string;
  let nachaText: string;
  let adminPage: TrackedPage | undefined;
  const person: NewCustomer = newCustomer({ firstName: 'Ada', lastName: 'Byron' });

  beforeAll(async () => {
    e2e = await launchBrowser();
    adminToken = (await staffSession('admin')).token;
    await signUpCustomer(person);
    const session = await signInApi(person.email, person.password);
    payer = session.user;
    payerToken = session.token;
    const documents = { passport: PNG_DATA_URL, documentFront: PNG_DATA_URL, documentBack: PNG_DATA_URL, documentType: 'passport' };
    await callApi('POST', '/user/verification', { ...documents, dateOfBirth: '1990-02-03' }, session.token);
    const { firstName, lastName, email, phone, address, state } = person;
    await callApi(
      'PUT',
      `/user/admin/${payer._id}`,
      { firstName, lastName, email, phone, location: { address, state }, verificationStatus: 'verified', isBlocked: false, paymentPin: PIN },
      adminToken,
    );
    await callApi('PUT', `/user/admin/account/${payer._id}`, { savings: 500, checking: 0, number: payer.account.number, reason: 'ACH journey' }, adminToken);
    const sent = await callApi<Envelope<Transaction>>(
      'POST',
      '/transaction/transfer',
      { from: 'savings', amount: AMOUNT, accountNumber: '9876543210', routingNumber: OTHER_BANK_ROUTING, accountType: 'checking', bankName: 'Other Bank', to: 'Charles Babbage', description: 'Analytical engine parts', paymentPin: PIN },
      session.token,
    );
    if (!sent.data.transferId) throw new Error('the external transfer has no transferId');
    transferId = sent.data.transferId;
  });

  afterAll(async () => {
    await adminPage?.context.close();
    await e2e?.close();
  });

  it('shows the customer the waiting transfer as "Sent"', { timeout: 60_000 }, async () => {
    await until('the debit in the customer list', async () => {
      const list = await callApi<{ data: Transaction[] }>('GET', '/transaction/complete', undefined, payerToken);
      return list.data.some((transaction) => transaction.transferId === transferId && transaction.transactionType === 'debit');
    });
    const tracked = await newPage(e2e, { viewport: viewports.mobile });
    await storeSession(tracked.page, payerToken, payer);
    await tracked.page.goto('/account/transactions');
    const row = tracked.page.getByRole('list', { name: 'Transactions' }).getByRole('listitem').filter({ hasText: 'Analytical engine parts' });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Sent/);
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });

  it('lets the admin build a file from the ACH area, open it and download it', { timeout: 180_000 }, async () => {
    adminPage = await newPage(e2e, { viewport: viewports.desktop });
    const { page } = adminPage;
    await adminLogin(page);
    expect(await page.getByRole('main').getByRole('link', { name: 'ACH' }).getAttribute('href')).toBe('/audit/ach');
    await page.goto('/admin/users');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'ACH' }).click();
    await page.waitForURL((url) => url.pathname === '/audit/ach');
    await page.getByRole('heading', { name: 'ACH', level: 1 }).waitFor();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    await page.getByRole('button', { name: 'Build file now' }).click();
    // A cut-off of the wall clock may have put the transfer into a file a moment before: then none is waiting.
    const built = page.getByText(/Built a file of|No entries waiting/).first();
    await built.waitFor();

    // The file that holds the customer's transfer (this one, or the cut-off's).
    await until('a file with the transfer', async () => {
      const files = await callApi<{ data: AchFileSummary[] }>('GET', '/admin/ach/files?limit=20', undefined, adminToken);
      for (const file of files.data) {
        const detail = await callApi<Envelope<AchFileDetail>>('GET', `/admin/ach/files/${file.id}`, undefined, adminToken);
        if (detail.data.entries.some((entry) => entry.transferId === transferId)) {
          fileId = file.id;
          return true;
        }
      }
      return false;
    });

    // The list shows it (opened again: a cut-off's file may have been built after the list was read); its page
    // lists the transfer among the entries.
    await page.reload();
    const table = page.getByRole('table', { name: /files?/ });
    await table.waitFor();
    await page.locator(`a[href="/audit/ach/files/${fileId}"]`).first().click();
    await page.waitForURL((url) => url.pathname === `/audit/ach/files/${fileId}`);
    const entry = page.getByRole('row').filter({ hasText: transferId });
    await entry.waitFor();
    expect(await entry.innerText()).toContain('$42.17');
    expect(await entry.innerText()).toContain(OTHER_BANK_ROUTING);
    expect(await entry.innerText()).toContain('22 Checking credit');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^Download/ }).first().click()]);
    const saved = await download.path();
    nachaText = await readFile(saved, 'utf8');
    const parsed = parseNachaFile(nachaText);
    expect(parsed.batches.flatMap((batch) => batch.entries).some((line) => line.amountCents === 4217 && line.accountNumber === '9876543210')).toBe(true);
    expectNoConsoleErrors(adminPage);
  });

  it('shows the files list and the file page at 1280 and 375 px without sideways scrolling', { timeout: 120_000 }, async () => {
    if (!adminPage) throw new Error('the admin did not sign in');
    const { page } = adminPage;
    for (const [width, viewport] of [
      ['1280', viewports.desktop],
      ['375', viewports.mobile],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto('/audit/ach');
      await page.getByRole('table', { name: /files?/ }).waitFor();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `ach-files-${width}`);
      await page.goto(`/audit/ach/files/${fileId}`);
      await page.getByRole('table', { name: /entr(y|ies), in file order/ }).waitFor();
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `ach-file-${width}`);
    }
    await page.setViewportSize(viewports.desktop);
  });

  it('applies a returns file for the entry, and the customer sees "Returned: R01 Insufficient funds"', { timeout: 120_000 }, async () => {
    if (!adminPage) throw new Error('the admin did not sign in');
    const { page } = adminPage;
    const bank = await callApi<Envelope<{ routingNumber: string }>>('GET', '/bank');
    const detail = await callApi<Envelope<AchFileDetail>>('GET', `/admin/ach/files/${fileId}`, undefined, adminToken);
    const traceNumber = detail.data.entries.find((line) => line.transferId === transferId)?.traceNumber;
    const original = parseNachaFile(nachaText)
      .batches.flatMap((batch) => batch.entries)
      .find((line) => line.traceNumber === traceNumber);
    if (!original) throw new Error(`no entry with trace number ${traceNumber} in the downloaded file`);
    const returns = returnsFileFor(original, bank.data.routingNumber);

    await page.goto('/audit/ach');
    await page.getByRole('navigation', { name: 'ACH' }).getByRole('link', { name: 'Upload returns or incoming' }).click();
    const form = page.getByRole('form', { name: 'Returns file' });
    await form.getByLabel("Or paste the file's text").fill(returns);
    await form.getByRole('button', { name: 'Upload returns file' }).click();
    const result = form.getByRole('region', { name: 'Result of the returns file' });
    await result.waitFor();
    expect(await result.innerText()).toMatch(/Applied\s*1\b/);
    await screenshot(page, 'ach-upload-result-1280');

    // The same file again moves nothing.
    await form.getByRole('button', { name: 'Upload returns file' }).click();
    await expect.poll(async () => result.innerText()).toMatch(/Already applied\s*1\b/);
    expect(await result.innerText()).toMatch(/Applied\s*0\b/);
    expectNoConsoleErrors(adminPage);

    const tracked = await newPage(e2e, { viewport: viewports.mobile });
    await storeSession(tracked.page, payerToken, payer);
    const words = `Returned: ${describeReturnReason('R01')}`;
    await until('the return credit in the customer list', async () => {
      const list = await callApi<{ data: Transaction[] }>('GET', '/transaction/complete', undefined, payerToken);
      return list.data.some((transaction) => transaction.description === words);
    });
    await tracked.page.goto('/account/transactions');
    const returned = tracked.page.getByRole('listitem').filter({ hasText: words });
    await returned.waitFor();
    expect(await returned.innerText()).toContain('+$42.17');
    const debit = tracked.page.getByRole('listitem').filter({ hasText: 'Analytical engine parts' });
    expect(await debit.innerText()).toMatch(/Failed/);
    await screenshot(tracked.page, 'ach-customer-returned-375');
    expectNoConsoleErrors(tracked);
    await tracked.context.close();
  });
});

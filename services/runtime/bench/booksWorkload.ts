/**
 * A short scripted workload against a running bank, then its books: `npm run books:workload -- --url
 * http://localhost:3000 [--data-dir DIR]` with ADMIN_EMAIL / ADMIN_PASSWORD of an admin (the one `npm start` creates
 * from them). It signs up three customers, funds them with balance edits, posts and deletes staff transactions, makes
 * two internal transfers and two external ones, then prints the trial balance, the reconciliation and how much money
 * staff created, as Markdown.
 *
 * External transfers leave through ACH files and settle at the close of business of their effective date
 * (docs/ach.md). On a bank in calendar mode they are still in transit at the end (`ach-outbound`, two open items).
 * On a bank in manual mode (`BUSINESS_DATE_MODE=manual`) the workload goes on: it builds the ACH file, and with
 * `--data-dir` (the bank's DATA_DIR, embedded ACH transport) plays the ODFI returning the second external transfer
 * (R02, account closed; the worker imports it and refunds the payer), then advances the business date past the
 * file's effective date: the first external transfer settles (`ach-outbound` → `cash-at-fed`).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { BENCH_PIN, call, expectStatus, type BenchCustomer } from './lib/bankClient';
import { setUpCustomers } from './lib/benchCustomers';
import { signInStaff } from './lib/staffSignIn';

interface LedgerRow {
  readonly key: string;
  readonly code: string;
  readonly name: string;
  readonly type: string;
  readonly debits: number;
  readonly credits: number;
  readonly balance: number;
}
interface TrialBalance {
  readonly at: string;
  readonly accounts: readonly LedgerRow[];
  readonly totalDebits: number;
  readonly totalCredits: number;
  readonly balanced: boolean;
}
interface Reconciliation {
  readonly ok: boolean;
  readonly controls: readonly { key: string; balance: number; subledgerTotal: number; difference: number }[];
  readonly clearing: readonly { key: string; balance: number; openItems: readonly { transferId: string; amount: number; since: string }[] }[];
}

const { values } = parseArgs({ options: { url: { type: 'string', default: 'http://localhost:3000' }, 'data-dir': { type: 'string' } } });
const baseUrl = values.url ?? 'http://localhost:3000';
const adminEmail = process.env.ADMIN_EMAIL;
const adminPassword = process.env.ADMIN_PASSWORD;
if (!adminEmail || !adminPassword) throw new Error('Set ADMIN_EMAIL and ADMIN_PASSWORD to an admin of the bank at --url');

const dollars = (amount: number): string => amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const today = new Date().toISOString().slice(0, 10);

const admin = await signInStaff(baseUrl, adminEmail, adminPassword);
const [alice, bob, carol] = await setUpCustomers({ baseUrl, adminToken: admin, runId: randomUUID().slice(0, 8), count: 3, checkingDollars: 1_000 });
if (!alice || !bob || !carol) throw new Error('three customers expected');

// Staff postings: a goodwill credit and a fee, each with a reason; then the fee is deleted (reversed).
await expectStatus(
  call(baseUrl, 'POST', `/transaction/admin/${alice.id}`, {
    token: admin,
    body: { amount: 250, transactionType: 'credit', date: today, description: 'Goodwill credit', account: 'savings', reason: 'Complaint 1432: late card' },
  }),
  201,
  'staff credit',
);
await expectStatus(
  call(baseUrl, 'POST', `/transaction/admin/${bob.id}`, {
    token: admin,
    body: { amount: 40, transactionType: 'debit', date: today, description: 'Card replacement fee', account: 'checking', reason: 'Card lost' },
  }),
  201,
  'staff debit',
);
const bobs = await expectStatus(call<{ data: { _id: string; description: string }[] }>(baseUrl, 'GET', `/transaction/admin/${bob.id}`, { token: admin }), 200, 'transactions');
const fee = bobs.data.find((transaction) => transaction.description === 'Card replacement fee');
if (fee) await expectStatus(call(baseUrl, 'DELETE', `/transaction/admin/${fee._id}`, { token: admin }), 200, 'delete the fee');
// A balance edit lowering Carol's checking (one entry), with a reason.
await expectStatus(
  call(baseUrl, 'PUT', `/user/admin/account/${carol.id}`, { token: admin, body: { savings: 0, checking: 900, number: carol.accountNumber, reason: 'Duplicate deposit corrected' } }),
  200,
  'balance edit',
);

async function transfer(payer: BenchCustomer, body: Record<string, unknown>): Promise<void> {
  await expectStatus(
    call(baseUrl, 'POST', '/transaction/transfer', {
      token: payer.token,
      headers: { 'idempotency-key': randomUUID() },
      body: { from: 'checking', bankName: 'Summit Bank', routingNumber: '102000021', accountType: 'checking', paymentPin: BENCH_PIN, ...body },
    }),
    201,
    'transfer',
  );
}
await transfer(alice, { amount: 125.5, accountNumber: bob.accountNumber, to: 'Bob', description: 'Dinner' });
await transfer(bob, { amount: 60, accountNumber: carol.accountNumber, to: 'Carol', description: 'Concert tickets' });
await transfer(carol, { amount: 75, accountNumber: '4000123456', bankName: 'Other Bank', routingNumber: '011000015', to: 'Landlord', description: 'Rent share' });
await transfer(alice, { amount: 30, accountNumber: '0000000000', bankName: 'Other Bank', routingNumber: '011000015', to: 'Closed account', description: 'Bounced' });

// The externals' way out: in manual mode, the ACH file, the ODFI's return (when its inbox is at hand) and the COBs.
const businessDate = async () =>
  (await expectStatus(call<{ data: { businessDate: string; mode: string } }>(baseUrl, 'GET', '/admin/business-date', { token: admin }), 200, 'business date')).data;
const calendar = await businessDate();
const notes: string[] = [];
const reconcile = async () => (await expectStatus(call<{ data: Reconciliation }>(baseUrl, 'GET', '/audit/ledger/reconciliation', { token: admin }), 200, 'reconciliation')).data;
const openItems = (books: Reconciliation) => books.clearing.reduce((sum, account) => sum + account.openItems.length, 0);
async function until(what: string, done: (books: Reconciliation) => boolean, timeoutMs = 90_000): Promise<Reconciliation> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const books = await reconcile();
    if (done(books)) return books;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
let reconciliation: Reconciliation | undefined;
if (calendar.mode === 'manual') {
  const built = await call<{ data: { id: string; effectiveDate: string; entryCount: number } | null }>(baseUrl, 'POST', '/admin/ach/files', { token: admin });
  if (built.status !== 201 || !built.body.data) throw new Error(`ACH file: expected 201 with a file, got ${built.status} ${JSON.stringify(built.body)}`);
  notes.push(`The ACH file of ${built.body.data.entryCount} entries was built on ${calendar.businessDate}, effective ${built.body.data.effectiveDate}.`);
  const dataDir = values['data-dir'];
  if (dataDir) {
    const outbox = path.join(dataDir, 'ach', 'outbox');
    const sent = Date.now() + 90_000;
    // The worker transmits the file at its next look (ACH_POLL_EVERY_MS).
    while (!(existsSync(outbox) && readdirSync(outbox).some((name) => name.endsWith('.txt')))) {
      if (Date.now() > sent) throw new Error(`no ACH file in ${outbox} within 90 s`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await promisify(execFile)('npm', ['run', '--silent', 'ach:simulate-odfi', '--', '--return', '0000000000', '--code', 'R02', '--data-dir', dataDir]);
    await until('the return refunded', (books) => openItems(books) === 1);
    notes.push('The ODFI returned the transfer to 0000000000 (R02, account closed): the payer was refunded.');
  }
  // Close each day up to and including the file's effective date (the next banking day: at most four days ahead).
  for (let days = 0; days < 5 && (await businessDate()).businessDate <= built.body.data.effectiveDate; days += 1) {
    const advanced = await expectStatus(call<{ data: { businessDate: string; closed: string[] } }>(baseUrl, 'POST', '/admin/business-date/advance', { token: admin, body: { days: 1 } }), 200, 'advance');
    notes.push(`Closed ${advanced.data.closed.join(', ')}; the business date is now ${advanced.data.businessDate}.`);
  }
  reconciliation = await until('the settlement', (books) => openItems(books) === 0);
} else {
  notes.push(`The bank follows the calendar (business date ${calendar.businessDate}): the external transfers settle at the close of business of their file's effective date, so they are in transit (\`ach-outbound\`) below.`);
}
// Calendar mode: the two external transfers answered 201 pending at once; their debits are in the books once projected.
reconciliation ??= await until('the external transfers in the books', (books) => openItems(books) === 2);
// Nothing moves any more: the trial balance now is the books the reconciliation saw.
const trial = (await expectStatus(call<{ data: TrialBalance }>(baseUrl, 'GET', '/audit/ledger/trial-balance', { token: admin }), 200, 'trial balance')).data;

const lines: string[] = [];
lines.push(...notes, '');
lines.push(`Trial balance at ${trial.at} (${trial.balanced ? 'balanced' : 'NOT BALANCED'})`, '');
lines.push('| Code | Account | Type | Debits | Credits | Balance |', '|---|---|---|---:|---:|---:|');
for (const row of trial.accounts) lines.push(`| ${row.code} | ${row.name} (\`${row.key}\`) | ${row.type} | ${dollars(row.debits)} | ${dollars(row.credits)} | ${dollars(row.balance)} |`);
lines.push(`| | **Total** | | **${dollars(trial.totalDebits)}** | **${dollars(trial.totalCredits)}** | |`, '');
lines.push(`Reconciliation (${reconciliation.ok ? 'ok' : 'DIFFERENCES'})`, '');
lines.push('| Account | Balance | Subledger / open items | Difference |', '|---|---:|---:|---:|');
for (const control of reconciliation.controls) lines.push(`| \`${control.key}\` | ${dollars(control.balance)} | ${dollars(control.subledgerTotal)} | ${dollars(control.difference)} |`);
for (const clearing of reconciliation.clearing) {
  const open = clearing.openItems.reduce((sum, item) => sum + item.amount, 0);
  lines.push(`| \`${clearing.key}\` | ${dollars(clearing.balance)} | ${dollars(open)} (${clearing.openItems.length} open) | ${dollars(clearing.balance - open)} |`);
}
const staff = trial.accounts.filter((row) => row.key === 'staff-adjustments' || row.key === 'staff-postings');
const created = -staff.reduce((sum, row) => sum + row.balance, 0);
lines.push('', `Money created by staff: ${staff.map((row) => `${row.name} ${dollars(-row.balance)}`).join(', ')}; in all ${dollars(created)}.`);
console.log(lines.join('\n'));
if (!trial.balanced || !reconciliation.ok) process.exitCode = 1;

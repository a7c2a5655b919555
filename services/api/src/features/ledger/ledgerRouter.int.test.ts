import { chartOfAccounts, ledgerAccountKeys } from '@bank/domain';
import { waitUntil } from '@bank/testkit';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../testing/parseCsv';
import type { SignedIn } from '../../testing/testApp';
import { ENTRIES_CSV_HEADER, TRIAL_BALANCE_CSV_HEADER } from './ledgerCsv';
import { allEntries, ledgerEntryJson } from './ledgerEntries';
import type { LedgerAccountJson, TrialBalanceJson } from './ledgerJson';
import { LEDGER_ACCOUNT_NOT_FOUND } from './ledgerRouter';
import { FUTURE_INSTANT_MESSAGE } from './ledgerQuery';
import { createLedgerTestApp, EXTERNAL_ROUTING_NUMBER, REJECTED_ACCOUNT, TEST_PIN, type LedgerTestApp } from './testing/ledgerTestApp';

/**
 * The books' reports over HTTP on the whole bank (the projector and the worker running): admin balance edits, staff
 * postings and a reversal, internal transfers, an external transfer settled and one refunded. The chart balances,
 * the controls equal the customers' balances, the clearing accounts their open items, and the trial balance at a
 * past instant is what it was then.
 */
let t: LedgerTestApp;
let admin: SignedIn;
let auditor: SignedIn;
let alice: SignedIn;
let bob: SignedIn;

const B = '/api/audit/ledger';

function transfer(payer: SignedIn, body: Record<string, unknown>) {
  return request(t.app)
    .post('/api/transaction/transfer')
    .set(payer.auth)
    .send({ from: 'savings', accountType: 'savings', bankName: 'Other Bank', routingNumber: EXTERNAL_ROUTING_NUMBER, to: 'Someone', description: 'Ledger test', paymentPin: TEST_PIN, ...body });
}

async function transactionsOf(userId: string): Promise<{ _id: string; transferId?: string; status: string; transactionType: string }[]> {
  return (await request(t.app).get(`/api/transaction/admin/${userId}`).set(admin.auth).expect(200)).body.data;
}

async function waitForStatus(userId: string, transferId: string, status: string): Promise<void> {
  await waitUntil(async () => (await transactionsOf(userId)).some((tx) => tx.transferId === transferId && tx.transactionType === 'debit' && tx.status === status), {
    what: `transfer ${transferId} ${status}`,
  });
}

async function customerBalanceCents(): Promise<{ savings: bigint; checking: bigint }> {
  const { rows } = await t.deps.pool.query<{ savings: string; checking: string }>('SELECT sum(savings_cents)::text AS savings, sum(checking_cents)::text AS checking FROM rm.accounts');
  return { savings: BigInt(rows[0]!.savings), checking: BigInt(rows[0]!.checking) };
}

const cents = (dollars: number) => BigInt(Math.round(dollars * 100));

async function trialBalance(query: Record<string, string> = {}): Promise<TrialBalanceJson> {
  const res = await request(t.app).get(`${B}/trial-balance`).query(query).set(auditor.auth).expect(200);
  return res.body.data as TrialBalanceJson;
}

/** A transfer to this account waits for its file until the test builds and settles one. */
const HELD_ACCOUNT = '5550002222';

beforeAll(async () => {
  t = await createLedgerTestApp('ledger_routes');
  [admin, auditor] = [await t.staff('admin'), await t.staff('auditor')];
  alice = await t.fundedCustomer(admin, 1000, 250.5);
  bob = await t.fundedCustomer(admin, 20);
  // A staff posting, and one reversed.
  await request(t.app).post(`/api/transaction/admin/${alice.userId}`).set(admin.auth).send({ amount: 12.34, transactionType: 'credit', date: new Date().toISOString(), description: 'Goodwill' }).expect(201);
  const posted = await request(t.app).post(`/api/transaction/admin/${bob.userId}`).set(admin.auth).send({ amount: 5, transactionType: 'debit', date: new Date().toISOString(), description: 'Fee by mistake' }).expect(201);
  await request(t.app).delete(`/api/transaction/admin/${posted.body.data._id as string}`).set(admin.auth).expect(200);
  // Internal transfers (the payee's credit empties transfers-in-transit), an external one settled, one refunded.
  await transfer(alice, { amount: 100, accountNumber: bob.accountNumber, accountType: 'checking' }).expect(201);
  await transfer(bob, { amount: 7.25, accountNumber: alice.accountNumber }).expect(201);
  const sent = await transfer(alice, { amount: 30, accountNumber: '5550001111' }).expect(201);
  const returned = await transfer(alice, { amount: 40, accountNumber: REJECTED_ACCOUNT }).expect(201);
  // Both go out in one ACH file; the receiving bank returns one (R01), the COB of the effective date settles the other.
  const file = await t.buildAchFile([sent.body.data.transferId as string, returned.body.data.transferId as string]);
  expect(await t.returnEntries(file, [REJECTED_ACCOUNT])).toMatchObject({ applied: 1 });
  await t.settleAchFile(file);
  await waitForStatus(alice.userId, sent.body.data.transferId as string, 'completed');
  await waitForStatus(alice.userId, returned.body.data.transferId as string, 'failed');
  await waitUntil(async () => (await transactionsOf(alice.userId)).some((tx) => tx.transferId === returned.body.data.transferId && tx.transactionType === 'credit'), { what: 'the refund' });
  await t.settle();
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /audit/ledger/accounts', () => {
  it('lists the chart in code order with debits, credits and balances that balance', async () => {
    const res = await request(t.app).get(`${B}/accounts`).set(auditor.auth).expect(200);
    const accounts = res.body.data as LedgerAccountJson[];
    expect(accounts.map((account) => account.key)).toEqual(chartOfAccounts.map((account) => account.key));
    expect(new Set(accounts.map((account) => account.key))).toEqual(new Set(ledgerAccountKeys));
    for (const account of accounts) expect(Object.keys(account).sort()).toEqual(['balance', 'code', 'credits', 'debits', 'key', 'name', 'type']);
    const debits = accounts.reduce((sum, account) => sum + cents(account.debits), 0n);
    const credits = accounts.reduce((sum, account) => sum + cents(account.credits), 0n);
    expect(debits).toBe(credits);
    expect(debits > 0n).toBe(true);
    const byKey = new Map(accounts.map((account) => [account.key, account]));
    const customers = await customerBalanceCents();
    expect(cents(byKey.get('customer-savings')!.balance)).toBe(customers.savings);
    expect(cents(byKey.get('customer-checking')!.balance)).toBe(customers.checking);
    expect(byKey.get('transfers-in-transit')!.balance).toBe(0);
    expect(byKey.get('ach-outbound')!.balance).toBe(0);
    // The money that left the bank: the one external transfer settled.
    expect(byKey.get('cash-at-fed')!.balance).toBe(-30);
    // Staff created the opening balances (1,270.50) and the goodwill posting (12.34); the reversed fee nets to zero.
    expect(byKey.get('staff-adjustments')!.balance).toBe(-1270.5);
    expect(byKey.get('staff-postings')!.balance).toBe(-12.34);
    await request(t.app).get(`${B}/accounts`).set(admin.auth).expect(200);
  });
});

describe('GET /audit/ledger/trial-balance', () => {
  it('now: every account of the chart, balanced, the same rows as the accounts', async () => {
    const accounts = (await request(t.app).get(`${B}/accounts`).set(auditor.auth).expect(200)).body.data as LedgerAccountJson[];
    const now = await trialBalance();
    expect(Object.keys(now).sort()).toEqual(['accounts', 'at', 'balanced', 'totalCredits', 'totalDebits']);
    expect(now.accounts).toEqual(accounts);
    expect(now.balanced).toBe(true);
    expect(now.totalDebits).toBe(now.totalCredits);
    expect(cents(now.totalDebits)).toBe(accounts.reduce((sum, account) => sum + cents(account.debits), 0n));
  });

  it('at an instant: replayed from the log, what it was then, whatever happened since', async () => {
    const then = new Date();
    const before = await trialBalance();
    // The replay of the log up to now equals the read model.
    expect((await trialBalance({ at: then.toISOString() })).accounts).toEqual(before.accounts);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await transfer(alice, { amount: 1.11, accountNumber: bob.accountNumber }).expect(201);
    await request(t.app).put(`/api/user/admin/account/${bob.userId}`).set(admin.auth).send({ savings: 500, checking: 1, number: bob.accountNumber, reason: 'Correction' }).expect(200);
    await t.settle();
    const after = await trialBalance();
    expect(after.accounts).not.toEqual(before.accounts);
    const replayed = await trialBalance({ at: then.toISOString() });
    expect(replayed).toEqual({ ...before, at: then.toISOString() });
    expect((await trialBalance({ at: new Date().toISOString() })).accounts).toEqual(after.accounts);
    // Before the bank's first event: every account at zero, balanced.
    const empty = await trialBalance({ at: '2000-01-01' });
    expect(empty).toMatchObject({ at: '2000-01-01T00:00:00.000Z', totalDebits: 0, totalCredits: 0, balanced: true });
    expect(empty.accounts.every((account) => account.debits === 0 && account.credits === 0 && account.balance === 0)).toBe(true);
  });

  it('as CSV and PDF attachments', async () => {
    const now = await trialBalance();
    const csv = await request(t.app).get(`${B}/trial-balance`).query({ format: 'csv', at: now.at }).set(auditor.auth).expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="trial-balance-${now.at.replace(/:/g, '-')}.csv"`);
    const records = parseCsv(csv.text);
    expect(records[0]).toEqual([...TRIAL_BALANCE_CSV_HEADER]);
    expect(records.slice(1, -1).map((record) => record[1])).toEqual(now.accounts.map((account) => account.key));
    expect(records.slice(1, -1).map((record) => record[6])).toEqual(now.accounts.map((account) => account.balance.toFixed(2)));
    expect(records.at(-1)).toEqual(['', '', 'Total (balanced)', '', now.totalDebits.toFixed(2), now.totalCredits.toFixed(2), '']);
    const pdf = await request(t.app)
      .get(`${B}/trial-balance`)
      .query({ format: 'pdf' })
      .set(admin.auth)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="trial-balance-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.pdf"$/);
    expect((pdf.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('400 for a malformed or future instant and an unknown format', async () => {
    for (const at of ['yesterday', '2025-13-01', '2025-02-30T00:00:00Z', new Date(Date.now() + 60_000).toISOString()]) {
      const res = await request(t.app).get(`${B}/trial-balance`).query({ at }).set(auditor.auth);
      expect(res.status, at).toBe(400);
      expect(res.body.errors, at).toEqual([{ path: 'at', message: expect.any(String) }]);
    }
    const future = await request(t.app).get(`${B}/trial-balance`).query({ at: '2999-01-01' }).set(auditor.auth).expect(400);
    expect(future.body.message).toBe(FUTURE_INSTANT_MESSAGE);
    const format = await request(t.app).get(`${B}/trial-balance`).query({ format: 'xml' }).set(auditor.auth).expect(400);
    expect(format.body.message).toBe('format must be json, csv or pdf');
  });
});

interface Entry {
  position: string;
  eventId: string;
  at: string;
  businessDate: string;
  side: 'debit' | 'credit';
  amount: number;
  customerId?: string;
  account?: string;
  transferId?: string;
  actorId?: string;
  description: string;
}

async function entries(key: string, query: Record<string, string | number> = {}): Promise<{ data: Entry[]; next: string | null }> {
  const res = await request(t.app).get(`${B}/accounts/${key}/entries`).query(query).set(auditor.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: Entry[]; next: string | null };
}

describe('GET /audit/ledger/accounts/:key/entries', () => {
  it("lists an account's lines in log order; pages by cursor give the same lines; they sum to its balance", async () => {
    const whole = await entries('customer-savings', { limit: 500 });
    expect(whole.next).toBeNull();
    expect(whole.data.length).toBeGreaterThan(6);
    const paged: Entry[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Entry[]; next: string | null } = await entries('customer-savings', { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.data.length).toBeLessThanOrEqual(2);
      paged.push(...page.data);
      cursor = page.next;
    } while (cursor);
    expect(paged).toEqual(whole.data);
    const positions = whole.data.map((entry) => BigInt(entry.position));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const net = whole.data.reduce((sum, entry) => sum + (entry.side === 'credit' ? cents(entry.amount) : -cents(entry.amount)), 0n);
    expect(net).toBe((await customerBalanceCents()).savings);
    for (const entry of whole.data) {
      expect(entry.position).toMatch(/^\d+$/);
      expect(entry.businessDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(entry.account).toBe('savings');
      expect(entry.customerId).toMatch(/^[0-9a-f-]{36}$/);
    }
    // An admin's edit names the admin and carries the reason.
    expect(whole.data.find((entry) => entry.customerId === alice.userId && entry.actorId === admin.userId)?.description).toContain('Opening deposit');
  });

  it('filters by customer and by business date', async () => {
    const mine = await entries('customer-savings', { customerId: bob.userId, limit: 500 });
    expect(mine.data.length).toBeGreaterThan(0);
    expect(mine.data.every((entry) => entry.customerId === bob.userId)).toBe(true);
    const today = mine.data[0]!.businessDate;
    expect((await entries('customer-savings', { customerId: bob.userId, from: today, to: today, limit: 500 })).data).toEqual(mine.data);
    expect((await entries('customer-savings', { to: '2000-01-01' })).data).toEqual([]);
    const clearing = await entries('transfers-in-transit', { limit: 500 });
    expect(clearing.data.every((entry) => entry.transferId !== undefined)).toBe(true);
  });

  it('reads a download a page at a time: the pages join into the whole list', async () => {
    const whole = await entries('customer-savings', { limit: 500 });
    const pages: number[] = [];
    const positions: string[] = [];
    for await (const rows of allEntries(t.deps.pool, { accountKey: 'customer-savings' }, 3)) {
      pages.push(rows.length);
      positions.push(...rows.map((row) => ledgerEntryJson(t.store, row).position));
    }
    expect(positions).toEqual(whole.data.map((entry) => entry.position));
    expect(pages.slice(0, -1).every((size) => size === 3)).toBe(true);
  });

  it('as a CSV download of the whole range', async () => {
    const whole = await entries('customer-savings', { limit: 500 });
    const res = await request(t.app).get(`${B}/accounts/customer-savings/entries`).query({ format: 'csv', limit: 1 }).set(auditor.auth).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="ledger-customer-savings-entries.csv"');
    const records = parseCsv(res.text);
    expect(records[0]).toEqual([...ENTRIES_CSV_HEADER]);
    expect(records.slice(1).map((record) => record[0])).toEqual(whole.data.map((entry) => entry.position));
    expect(records.slice(1).map((record) => record[5])).toEqual(whole.data.map((entry) => entry.amount.toFixed(2)));
  });

  it('404 for an unknown account, 400 for a bad limit, cursor or filter', async () => {
    for (const key of ['no-such-account', 'Cash-At-Fed', '1000']) {
      const res = await request(t.app).get(`${B}/accounts/${key}/entries`).set(auditor.auth).expect(404);
      expect(res.body).toEqual({ message: LEDGER_ACCOUNT_NOT_FOUND });
    }
    for (const query of [{ limit: 501 }, { limit: 0 }, { cursor: 'nope' }, { cursor: Buffer.from('{"position":"1","lineNo":0}').toString('base64url') }, { from: '2025-02-30' }, { to: 'today' }, { from: '2025-02-02', to: '2025-02-01' }, { customerId: 'x' }, { format: 'pdf' }]) {
      const res = await request(t.app).get(`${B}/accounts/cash-at-fed/entries`).query(query).set(auditor.auth);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.errors?.length, JSON.stringify(query)).toBe(1);
    }
  });
});

describe('GET /audit/ledger/reconciliation', () => {
  it('the controls equal the customers’ balances, the clearing accounts their open items', async () => {
    const res = await request(t.app).get(`${B}/reconciliation`).set(auditor.auth).expect(200);
    const customers = await customerBalanceCents();
    expect(res.body.data).toEqual({
      ok: true,
      controls: [
        { key: 'customer-savings', balance: Number(customers.savings) / 100, subledgerTotal: Number(customers.savings) / 100, difference: 0 },
        { key: 'customer-checking', balance: Number(customers.checking) / 100, subledgerTotal: Number(customers.checking) / 100, difference: 0 },
        { key: 'interest-payable', balance: 0, subledgerTotal: 0, difference: 0 },
      ],
      clearing: [
        { key: 'transfers-in-transit', balance: 0, openItems: [] },
        { key: 'ach-outbound', balance: 0, openItems: [] },
      ],
    });
  });
});

describe('GET /audit/ledger/reconciliation with a transfer half done', () => {
  it('an external transfer waiting to settle is an open item of ach-outbound, and the books still reconcile', async () => {
    const sent = await transfer(alice, { amount: 9.99, accountNumber: HELD_ACCOUNT }).expect(201);
    const transferId = sent.body.data.transferId as string;
    await t.settle();
    const waiting = (await request(t.app).get(`${B}/reconciliation`).set(auditor.auth).expect(200)).body.data;
    expect(waiting.ok).toBe(true);
    const ach = waiting.clearing.find((account: { key: string }) => account.key === 'ach-outbound');
    expect(ach).toEqual({ key: 'ach-outbound', balance: 9.99, openItems: [{ transferId, amount: 9.99, since: expect.any(String) }] });
    expect(Date.parse(ach.openItems[0].since)).not.toBeNaN();
    await t.settleAchFile(await t.buildAchFile([transferId]));
    await waitForStatus(alice.userId, transferId, 'completed');
    await t.settle();
    const settled = (await request(t.app).get(`${B}/reconciliation`).set(auditor.auth).expect(200)).body.data;
    expect(settled.ok).toBe(true);
    expect(settled.clearing.find((account: { key: string }) => account.key === 'ach-outbound')).toEqual({ key: 'ach-outbound', balance: 0, openItems: [] });
  });
});

describe('GET /audit/ledger/days', () => {
  it('answers the day closes, newest first, paged (none closed here)', async () => {
    const res = await request(t.app).get(`${B}/days`).set(admin.auth).expect(200);
    expect(res.body).toEqual({ data: [], next: null });
    await request(t.app).get(`${B}/days`).query({ limit: 501 }).set(admin.auth).expect(400);
    await request(t.app).get(`${B}/days`).query({ cursor: 'e30' }).set(admin.auth).expect(400);
  });
});

describe('who may read the books', () => {
  it('401 without a token, 403 for a customer, on every route', async () => {
    for (const path of ['/accounts', '/trial-balance', '/accounts/cash-at-fed/entries', '/reconciliation', '/days']) {
      await request(t.app).get(`${B}${path}`).expect(401);
      await request(t.app).get(`${B}${path}`).set(alice.auth).expect(403);
      await request(t.app).get(`${B}${path}`).set(auditor.auth).expect(200);
    }
  });
});

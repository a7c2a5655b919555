import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBulkCustomers } from '../testing/bulkReadModels';
import { createTestApp, type TestApp } from '../testing/testApp';
import { queryStaffLog, searchCustomers } from './audit/readModelQueries';
import { listBeneficiaries } from './beneficiaries/beneficiaryQueries';
import { listContacts } from './contacts/contactQueries';
import { latestCloseAtOrBefore } from './ledger/dayCloseQuery';
import { queryDays } from './ledger/ledgerDays';
import { queryEntries } from './ledger/ledgerEntries';
import { listTransactionRows } from './transactions/transactionQueries';
import { listCustomers } from './users/customerList';

/**
 * The query plans of the admin lists (issue 23): each list query, as its own function builds it, is EXPLAINed on
 * read models of some thousands of rows, with sequential scans priced out (`enable_seqscan = off`) so that the
 * plan is the indexed one the table would get at size. Each test names the index it needs: without that index
 * the planner falls back to another path (another index with a filter, or the priced-out scan) and the test fails.
 */
let t: TestApp;
const CUTOFF = '2026-06-01T00:00:00.000000Z';
const ZERO_ID = '00000000-0000-4000-8000-000000000000';
let someUser: string;

interface Captured {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** A pool that records the statements a query function sends (answering no rows) instead of running them. */
function recordingPool(): { pool: pg.Pool; statements: Captured[] } {
  const statements: Captured[] = [];
  const pool = {
    query: (text: string, values: unknown[] = []) => {
      statements.push({ text, values });
      return Promise.resolve({ rows: [], rowCount: 0 });
    },
  } as unknown as pg.Pool;
  return { pool, statements };
}

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly Plans?: readonly PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** The plan nodes of the one statement `run` sends, as PostgreSQL would execute it here. */
async function planOf(run: (pool: pg.Pool) => Promise<unknown>): Promise<PlanNode[]> {
  const recorder = recordingPool();
  await run(recorder.pool);
  expect(recorder.statements).toHaveLength(1);
  const [statement] = recorder.statements;
  const client = await t.deps.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${statement!.text}`, [...statement!.values]);
    return nodesOf(rows[0]!['QUERY PLAN'][0].Plan);
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

function expectIndexed(nodes: PlanNode[], table: string, index: string): void {
  const described = nodes.map((node) => `${node['Node Type']} ${node['Relation Name'] ?? ''} ${node['Index Name'] ?? ''}`.trim());
  expect(nodes.some((node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === table), described.join(' | ')).toBe(false);
  expect(nodes.map((node) => node['Index Name']), described.join(' | ')).toContain(index);
}

beforeAll(async () => {
  t = await createTestApp('list_plans');
  const pool = t.deps.pool;
  await insertBulkCustomers(pool, 20_000, 'plans');
  const { rows } = await pool.query<{ id: string }>(`SELECT id FROM rm.users WHERE role = 'customer' LIMIT 1`);
  someUser = rows[0]!.id;
  await pool.query(
    `INSERT INTO rm.transactions (id, user_id, account, direction, amount_cents, description, date, status, balance_after_cents,
                                  kind, event_type, created_at, created_position, last_position)
     SELECT gen_random_uuid(), u.id, 'savings', 'credit', 100, 'Bulk', timestamptz '2026-01-01' + (n * 37 % 20000) * interval '1 minute',
            'completed', 100 * n, 'staff', 'StaffTransactionPosted', now(), '0', '0'
       FROM (SELECT id, row_number() OVER () AS r FROM rm.users WHERE role = 'customer' LIMIT 2000) u, generate_series(1, 10) AS n`,
  );
  await pool.query(
    `INSERT INTO rm.staff_audit_log (id, actor_id, actor_role, type, target_user_id, target_id, details, at, stream_id, position)
     SELECT gen_random_uuid(), NULL, 'admin', 'StaffTransactionPosted', NULL, NULL, '{}', timestamptz '2026-01-01' + i * interval '1 minute',
            'account-x', lpad(i::text, 20, '0') || ':' || lpad(i::text, 20, '0')
       FROM generate_series(1, 20000) AS i`,
  );
  await pool.query(
    `INSERT INTO rm.contacts (id, name, email, phone, subject, message, created_at, last_position)
     SELECT gen_random_uuid(), 'Name', 'a@example.com', '', 'Subject', 'Message', timestamptz '2026-01-01' + i * interval '1 minute', '0'
       FROM generate_series(1, 5000) AS i`,
  );
  await pool.query(
    `INSERT INTO rm.beneficiaries (id, name, account_number, added_by, created_at, last_position)
     SELECT gen_random_uuid(), 'Payee', lpad(i::text, 10, '0'), gen_random_uuid(), timestamptz '2026-01-01' + i * interval '1 minute', '0'
       FROM generate_series(1, 5000) AS i`,
  );
  // The books: 20,000 journal lines, over nine accounts of the chart but for fee-income's one in a thousand.
  await pool.query(
    `WITH c AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS r FROM rm.users WHERE role = 'customer' LIMIT 2000)
     INSERT INTO rm.journal_lines (position, line_no, event_id, recorded_at, business_date, account_key, side, amount_cents, customer_id,
                                   account_type, transfer_id, actor_id, description)
     SELECT lpad(i::text, 20, '0') || ':' || lpad(i::text, 20, '0'), 0, gen_random_uuid(), timestamptz '2026-01-01' + i * interval '1 minute',
            date '2026-01-01' + i / 1440, CASE WHEN i % 1000 = 0 THEN 'fee-income' ELSE (ARRAY['cash-at-fed','customer-savings','customer-checking',
            'transfers-in-transit','ach-outbound','interest-payable','staff-adjustments','staff-postings','interest-expense'])[1 + i % 9] END, 'debit', 100,
            c.id, 'savings', NULL, NULL, 'Bulk'
       FROM generate_series(1, 20000) AS i JOIN c ON c.r = i % 2000`,
  );
  await pool.query(
    `INSERT INTO rm.ledger_days (business_date, closed_at, through_position, total_debits_cents, total_credits_cents, balanced, journal_hash, line_count, accounts, recorded_at)
     SELECT date '2020-01-01' + i, timestamptz '2020-01-02' + i * interval '1 day', lpad(i::text, 20, '0') || ':' || lpad(i::text, 20, '0'), 0, 0, true, '', 0, '[]',
            timestamptz '2020-01-02' + i * interval '1 day'
       FROM generate_series(1, 2000) AS i`,
  );
  for (const table of ['users', 'transactions', 'staff_audit_log', 'contacts', 'beneficiaries', 'journal_lines', 'ledger_days']) await pool.query(`ANALYZE rm.${table}`);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('query plans of the admin lists', () => {
  // An account with a large share of the lines may walk the primary key (log order) instead: its next page is near.
  it("the books: a rare account's entries walk journal_lines_account_idx, a customer's journal_lines_customer_idx, the day closes their key", async () => {
    const after = { position: `${'0'.repeat(15)}10000:${'0'.repeat(15)}10000`, lineNo: 0 };
    expectIndexed(await planOf((pool) => queryEntries(pool, { accountKey: 'fee-income' }, 101)), 'journal_lines', 'journal_lines_account_idx');
    expectIndexed(
      await planOf((pool) => queryEntries(pool, { accountKey: 'fee-income', from: '2026-01-02', to: '2026-01-05' }, 101, after)),
      'journal_lines',
      'journal_lines_account_idx',
    );
    expectIndexed(await planOf((pool) => queryEntries(pool, { accountKey: 'customer-savings', customerId: someUser }, 101, after)), 'journal_lines', 'journal_lines_customer_idx');
    expectIndexed(await planOf((pool) => queryDays(pool, 101)), 'ledger_days', 'ledger_days_pkey');
    expectIndexed(await planOf((pool) => queryDays(pool, 101, { businessDate: '2024-01-01' })), 'ledger_days', 'ledger_days_pkey');
    // The trial balance at an instant starts from the latest close at or before it.
    expectIndexed(await planOf((pool) => latestCloseAtOrBefore(pool, new Date('2022-01-01T00:00:00Z'))), 'ledger_days', 'ledger_days_pkey');
  });

  it('customers: the first page and a later one walk users_role_created_idx', async () => {
    expectIndexed(await planOf((pool) => listCustomers(pool, { limit: 51 })), 'users', 'users_role_created_idx');
    expectIndexed(
      await planOf((pool) => listCustomers(pool, { limit: 51, after: { createdAt: CUTOFF, id: ZERO_ID } })),
      'users',
      'users_role_created_idx',
    );
  });

  it('customer search: a fragment uses the trigram index, a short prefix the e-mail and account-number prefix indexes', async () => {
    expectIndexed(await planOf((pool) => listCustomers(pool, { search: 'lk1234', limit: 51 })), 'users', 'users_search_trgm_idx');
    expectIndexed(await planOf((pool) => listCustomers(pool, { search: 'bulk777.', limit: 51 })), 'users', 'users_search_trgm_idx');
    // A fragment nearly every customer has: walking the newest-first index stops as soon as the page is full.
    expectIndexed(await planOf((pool) => listCustomers(pool, { search: '@example', limit: 51 })), 'users', 'users_role_created_idx');
    const prefix = await planOf((pool) => listCustomers(pool, { search: 'zz', limit: 51 }));
    expectIndexed(prefix, 'users', 'users_email_prefix_idx');
    expectIndexed(prefix, 'users', 'users_account_prefix_idx');
    expectIndexed(await planOf((pool) => searchCustomers(pool, 'plans1234', 51)), 'users', 'users_search_trgm_idx');
  });

  it("transactions: a customer's pages use transactions_user_date_idx, everyone's transactions_date_idx", async () => {
    const after = { kind: 'key' as const, date: CUTOFF, id: ZERO_ID };
    expectIndexed(await planOf((pool) => listTransactionRows(pool, { userId: someUser, limit: 51 })), 'transactions', 'transactions_user_date_idx');
    expectIndexed(await planOf((pool) => listTransactionRows(pool, { userId: someUser, limit: 51, before: after })), 'transactions', 'transactions_user_date_idx');
    expectIndexed(await planOf((pool) => listTransactionRows(pool, { limit: 501, before: after })), 'transactions', 'transactions_date_idx');
  });

  it('staff log, contacts and beneficiaries: their newest-first indexes', async () => {
    expectIndexed(
      await planOf((pool) => queryStaffLog(pool, t.store, { limit: 201, after: { at: CUTOFF, position: `${'9'.repeat(20)}:${'9'.repeat(20)}` } })),
      'staff_audit_log',
      'staff_audit_log_at_idx',
    );
    expectIndexed(await planOf((pool) => listContacts(pool, { limit: 101, after: { createdAt: CUTOFF, id: ZERO_ID } })), 'contacts', 'contacts_created_idx');
    expectIndexed(
      await planOf((pool) => listBeneficiaries(pool, { limit: 101, after: { createdAt: CUTOFF, id: ZERO_ID } })),
      'beneficiaries',
      'beneficiaries_created_idx',
    );
  });
});

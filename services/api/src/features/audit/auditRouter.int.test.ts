import { randomUUID } from 'node:crypto';
import { createPostgresEventStore, ensureEventStoreSchema, type EventStore } from '@bank/eventstore';
import { createLogger, createPool } from '@bank/platform';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import express from 'express';
import type pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../http/errorHandler';
import { auditRoutes } from './auditRouter';
import { createHistoryBuilder, type Actor } from '../../testing/historyBuilder';
import { parseCsv } from '../../testing/parseCsv';
import type { AuditEvent } from './presentEvents';
import { verifyRecord } from '@bank/audit';
import { tamperEvents } from '../../testing/tamperEvents';

/**
 * The audit routes on a bare express app over a real PostgreSQL event store, with a history built through the
 * domain at chosen instants. (The same routes behind the real app's auth are tested in auditApp.test.ts.)
 */
let database: TestDatabase;
let pool: pg.Pool;
let store: EventStore;
let app: express.Express;

const admin: Actor = { id: randomUUID(), role: 'admin' };
const t = (day: number, hour = 10) => new Date(Date.UTC(2025, 0, day, hour));
let alice = '';
let bob = '';
let bonusId = '';

beforeAll(async () => {
  database = await createTestDatabase('audit_router');
  pool = createPool(database.url, 4);
  await ensureEventStoreSchema(pool);
  store = createPostgresEventStore({ pool });
  app = express();
  app.use(
    '/audit',
    auditRoutes({
      store,
      pool,
      verify: () => verifyRecord({ store, streamHeads: () => store.streamHeads!(), readModels: async () => ({ balances: 0, mismatches: [] }) }),
    }),
  );
  app.use(errorHandler(createLogger('audit-test', 'silent')));

  const history = createHistoryBuilder(store);
  alice = await history.register({ firstName: 'Alice', lastName: 'Able', email: 'Alice@Example.com', accountNumber: '1000000001' }, t(1));
  bob = await history.register({ firstName: 'Bob', lastName: 'Baker', email: 'bob@example.com', accountNumber: '1000000002' }, t(1, 11));
  await history.account(
    alice,
    { type: 'AdjustBalances', adminId: admin.id, savingsCents: 100_000, checkingCents: 20_000, reason: 'Opening deposit', transactionIds: { savings: randomUUID(), checking: randomUUID() }, now: t(2).toISOString() },
    admin,
    t(2),
  );
  await history.account(bob, { type: 'AdjustBalances', adminId: admin.id, savingsCents: 0, checkingCents: 5_000, transactionIds: { savings: randomUUID(), checking: randomUUID() }, now: t(2, 12).toISOString() }, admin, t(2, 12));
  bonusId = randomUUID();
  await history.account(
    alice,
    { type: 'PostStaffTransaction', transactionId: bonusId, adminId: admin.id, account: 'checking', direction: 'credit', amountCents: 5_000, date: '2025-01-03', description: 'Bonus, "loyalty"', now: t(3).toISOString() },
    admin,
    t(3),
  );
  await history.account(
    alice,
    {
      type: 'ReverseTransaction',
      transactionId: randomUUID(),
      reversedTransactionId: bonusId,
      original: { account: 'checking', direction: 'credit', amountCents: 5_000, description: 'Bonus, "loyalty"', transferId: null },
      adminId: admin.id,
      now: t(4).toISOString(),
    },
    admin,
    t(4),
  );
  await history.customer(alice, { type: 'EditCustomerProfile', adminId: admin.id, firstName: 'Alice', lastName: 'Able', email: 'alice@example.com', phone: '555-0199', address: '1 Main St', state: 'NY', now: t(5).toISOString() }, admin, t(5));
  await history.customer(alice, { type: 'SetPaymentPin', adminId: admin.id, pinHash: '$2a$10$pinhashpinhashpinhashpinhashpinhashpinhashpinhashpinha', now: t(5, 11).toISOString() }, admin, t(5, 11));
  await history.customer(bob, { type: 'SetPaymentPin', adminId: admin.id, pinHash: '$2a$10$pinhashpinhashpinhashpinhashpinhashpinhashpinhashpinhb', now: t(5, 12).toISOString() }, admin, t(5, 12));
  await history.transfer({ payerId: alice, payeeId: bob, payeeName: 'Bob Baker', payeeAccountNumber: '1000000002', from: 'savings', to: 'checking', amountCents: 12_550, description: 'Rent' }, t(6), t(6, 11));
  await history.transfer({ payerId: bob, payeeId: alice, payeeName: 'Alice Able', payeeAccountNumber: '1000000001', from: 'checking', to: 'savings', amountCents: 2_000, description: 'Thanks' }, t(7), t(7, 11));
});

afterAll(async () => {
  await store?.close();
  await pool?.end();
  await database?.drop();
});

async function aliceEvents(): Promise<AuditEvent[]> {
  const res = await request(app).get(`/audit/users/${alice}/events`).expect(200);
  return res.body.data as AuditEvent[];
}

describe('GET /audit/users/:id/events?limit&cursor', () => {
  it('pages the same events in the same order; empty past the end; 400 for bad cursors', async () => {
    const all = await aliceEvents();
    expect(all.length).toBeGreaterThan(5);
    const seen: AuditEvent[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const res = await request(app).get(`/audit/users/${alice}/events`).query({ limit: 2, ...(cursor ? { cursor } : {}) }).expect(200);
      seen.push(...(res.body.data as AuditEvent[]));
      cursor = res.body.next as string | null;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 2));
    const whole = await request(app).get(`/audit/users/${alice}/events`).expect(200);
    expect(whole.body.next).toBeNull();
    const last = all.at(-1)!.position;
    const past = Buffer.from(JSON.stringify({ position: last })).toString('base64url');
    expect((await request(app).get(`/audit/users/${alice}/events`).query({ cursor: past }).expect(200)).body).toEqual({ data: [], next: null });
    for (const bad of ['nope', Buffer.from(JSON.stringify({ position: '-1' })).toString('base64url')]) {
      const res = await request(app).get(`/audit/users/${alice}/events`).query({ cursor: bad });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('cursor');
    }
  });
});

describe('GET /audit/users/:id/events', () => {
  it("lists every event of the customer's streams and the transfers they took part in, oldest first", async () => {
    const events = await aliceEvents();
    const streamsSeen = new Set(events.map((e) => e.stream));
    expect([...streamsSeen].filter((s) => s.startsWith('transfer-'))).toHaveLength(2);
    expect(streamsSeen).toContain(`customer-${alice}`);
    expect(streamsSeen).toContain(`account-${alice}`);
    expect([...streamsSeen].some((s) => s.includes(bob))).toBe(false);
    const positions = events.map((e) => BigInt(e.position));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(events[0]).toMatchObject({ type: 'CustomerRegistered', stream: `customer-${alice}`, revision: 0, time: t(1).toISOString(), actor: { id: alice, role: 'customer' } });
    expect(events.map((e) => e.type)).toEqual([
      'CustomerRegistered',
      'AccountOpened',
      'BalanceAdjusted',
      'BalanceAdjusted',
      'StaffTransactionPosted',
      'TransactionReversed',
      'ProfileChanged',
      'PaymentPinSet',
      // Alice pays Bob: her request (the debit), then the transfer process: Bob credited (not hers to see), her
      // debit completed, the transfer recorded.
      'AccountDebited',
      'TransactionStatusChanged',
      'TransferRequested',
      'TransferDebited',
      'TransferCredited',
      // Bob pays Alice: Bob's debit (not hers), Alice credited, the transfer recorded.
      'AccountCredited',
      'TransferRequested',
      'TransferDebited',
      'TransferCredited',
    ]);
  });

  it('masks the password and pin hashes', async () => {
    const events = await aliceEvents();
    expect(events.find((e) => e.type === 'CustomerRegistered')!.data.passwordHash).toBe('***');
    expect(events.find((e) => e.type === 'PaymentPinSet')!.data.pinHash).toBe('***');
    expect(JSON.stringify(events)).not.toContain('$2a$');
  });

  it('names who did each staff action and the values before and after', async () => {
    const events = await aliceEvents();
    const profile = events.find((e) => e.type === 'ProfileChanged')!;
    expect(profile).toMatchObject({ staff: true, actor: { id: admin.id, role: 'admin' }, changes: [{ field: 'phone', before: '555-0100', after: '555-0199' }] });
    const adjustments = events.filter((e) => e.type === 'BalanceAdjusted');
    expect(adjustments.flatMap((e) => e.changes)).toEqual([
      { field: 'savings', before: 0, after: 1000 },
      { field: 'checking', before: 0, after: 200 },
    ]);
    const reversal = events.find((e) => e.type === 'TransactionReversed')!;
    expect(reversal.changes).toEqual([{ field: 'checking', before: 250, after: 200 }]);
    expect(reversal.summary).toContain(bonusId);
  });

  it('carries the replayed balances after each event', async () => {
    const events = await aliceEvents();
    expect(events.find((e) => e.type === 'StaffTransactionPosted')!.balances).toEqual({ savings: 1000, checking: 250 });
    expect(events.at(-1)!.balances).toEqual({ savings: 894.5, checking: 200 });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    await request(app).get(`/audit/users/${randomUUID()}/events`).expect(404);
    await request(app).get('/audit/users/not-an-id/events').expect(404);
  });

  it('exports the same events as CSV with a header row, properly quoted', async () => {
    const events = await aliceEvents();
    const res = await request(app).get(`/audit/users/${alice}/events?format=csv`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain(`customer-${alice}-events.csv`);
    const rows = parseCsv(res.text);
    const [header, ...records] = rows;
    expect(header).toEqual(['position', 'time', 'stream', 'revision', 'type', 'actor_id', 'actor_role', 'summary', 'changes', 'savings_after', 'checking_after', 'event_id', 'data']);
    expect(records).toHaveLength(events.length);
    const staff = records.find((r) => r[4] === 'StaffTransactionPosted')!;
    expect(staff[7]).toContain('Bonus, "loyalty"');
    expect(JSON.parse(staff[12]!)).toMatchObject({ description: 'Bonus, "loyalty"', amountCents: 5000 });
    expect(records.at(-1)!.slice(9, 11)).toEqual(['894.50', '200.00']);
    await request(app).get(`/audit/users/${alice}/events?format=xml`).expect(400);
  });
});

describe('GET /audit/users/:id/balances?at=', () => {
  const at = async (iso?: string) => {
    const res = await request(app)
      .get(`/audit/users/${alice}/balances`)
      .query(iso ? { at: iso } : {})
      .expect(200);
    return res.body.data as { savings: number; checking: number; transactions: { _id: string; status: string; amount: number }[]; at: string };
  };

  it('replays the balances as they stood at each instant', async () => {
    expect(await at(t(1, 12).toISOString())).toMatchObject({ savings: 0, checking: 0 });
    expect(await at(t(2).toISOString())).toMatchObject({ savings: 1000, checking: 200 });
    expect(await at('2025-01-03T12:00:00+02:00')).toMatchObject({ savings: 1000, checking: 250 });
    expect(await at(t(4, 12).toISOString())).toMatchObject({ savings: 1000, checking: 200 });
    expect(await at(t(6, 10).toISOString())).toMatchObject({ savings: 874.5, checking: 200 });
    expect(await at(t(7, 12).toISOString())).toMatchObject({ savings: 894.5, checking: 200 });
    expect(await at()).toMatchObject({ savings: 894.5, checking: 200 });
  });

  it('lists the transactions as they stood then, newest first', async () => {
    const before = await at(t(3, 12).toISOString());
    expect(before.transactions.find((tx) => tx._id === bonusId)).toMatchObject({ status: 'completed', amount: 50 });
    const after = await at(t(4, 12).toISOString());
    expect(after.transactions[0]).toMatchObject({ transactionType: 'debit', amount: 50 });
    expect(after.transactions.find((tx) => tx._id === bonusId)).toMatchObject({ status: 'reversed' });
  });

  it('lists the newest `limit` transactions (200 by default) and says how many there are', async () => {
    const all = (await request(app).get(`/audit/users/${alice}/balances`).expect(200)).body.data as { transactions: { _id: string }[]; transactionsTotal: number };
    expect(all.transactions.length).toBeGreaterThan(2);
    expect(all.transactionsTotal).toBe(all.transactions.length);
    const newest = (await request(app).get(`/audit/users/${alice}/balances`).query({ limit: 2 }).expect(200)).body.data as typeof all;
    expect(newest.transactions).toEqual(all.transactions.slice(0, 2));
    expect(newest.transactionsTotal).toBe(all.transactionsTotal);
    expect((await request(app).get(`/audit/users/${alice}/balances`).query({ limit: 0 })).status).toBe(400);
  });

  it('refuses a date that is not ISO-8601 with 400', async () => {
    for (const bad of ['yesterday', '2025-13-01', '2025-01-01T25:00:00Z', '1735725600000']) {
      const res = await request(app).get(`/audit/users/${alice}/balances`).query({ at: bad }).expect(400);
      expect(res.body.errors[0].path).toBe('at');
    }
  });

  it('answers 404 for an unknown customer', async () => {
    await request(app).get(`/audit/users/${randomUUID()}/balances`).expect(404);
  });
});

describe('GET /audit/verify (hash chains)', () => {
  it('finds the intact record intact, then names exactly the stream whose event was changed, then the one whose event was deleted', async () => {
    const intact = await request(app).get('/audit/verify').expect(200);
    expect(intact.body.data).toMatchObject({ ok: true, mismatches: [] });
    expect(intact.body.data.checked.streams).toBeGreaterThanOrEqual(8);

    const accountStream = `account-${alice}`;
    const { rows } = await tamperEvents(
      pool,
      `UPDATE eventstore.events SET data = jsonb_set(data, '{amountCents}', '500000') WHERE stream_id = $1 AND type = 'StaffTransactionPosted' RETURNING global_position`,
      [accountStream],
    );
    const tampered = await request(app).get('/audit/verify').expect(200);
    expect(tampered.body.data.ok).toBe(false);
    expect(tampered.body.data.mismatches).toEqual([
      expect.objectContaining({ kind: 'chain', stream: accountStream, position: rows[0]!.global_position, reason: 'hash_mismatch' }),
    ]);
    // The altered amount shows in the history, which is why the chain matters.
    expect((await aliceEvents()).find((e) => e.type === 'StaffTransactionPosted')!.data.amountCents).toBe(500000);
    await tamperEvents(pool, `UPDATE eventstore.events SET data = jsonb_set(data, '{amountCents}', '5000') WHERE stream_id = $1 AND type = 'StaffTransactionPosted'`, [accountStream]);
    expect((await request(app).get('/audit/verify').expect(200)).body.data.ok).toBe(true);

    const customerStream = `customer-${bob}`;
    await tamperEvents(pool, `DELETE FROM eventstore.events WHERE stream_id = $1 AND revision = 0`, [customerStream]);
    const deleted = await request(app).get('/audit/verify').expect(200);
    expect(deleted.body.data.mismatches).toEqual([expect.objectContaining({ kind: 'chain', stream: customerStream, revision: 1, reason: 'revision_gap' })]);
  });
});

import { createHash } from 'node:crypto';
import { parseBooksSettings } from '@bank/books';
import { readDomainEvent } from '@bank/commands';
import { addDays, journalEntryOf, journalLineText, streams, type BusinessDayClose } from '@bank/domain';
import { comparePositions, formatPosition, parsePosition, type RecordedEvent } from '@bank/eventstore';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../appDeps';
import { errorHandler } from '../../http/errorHandler';
import { jsonBody } from '../../http/jsonBody';
import { requestId } from '../../http/requestId';
import { createTestApp, type SignedIn, type SignedInWithFactor, type TestApp } from '../../testing/testApp';
import { createAppBooks } from './appBooks';
import { businessDateAdvanceShape, businessDateShape } from './businessDateShape';
import { createBusinessDateRouter } from './businessDateRouter';

/**
 * The business date in manual mode on the real app (PostgreSQL event store, projector, the COB of the API): money
 * commands carry the open date, an advance closes each date once with balanced totals and a journal hash that a
 * replay of the day's lines gives again, two advances at once never close a date twice, and the refusals.
 */
const START = '2026-03-02';
let t: TestApp;
let admin: SignedInWithFactor;
let auditor: SignedInWithFactor;
let customer: SignedIn;

async function businessDays(): Promise<RecordedEvent[]> {
  return t.store.readStream(streams.businessDays());
}

async function closes(): Promise<BusinessDayClose[]> {
  return (await businessDays()).filter((event) => event.type === 'BusinessDayClosed').map((event) => event.data as unknown as BusinessDayClose);
}

/** The journal hash of the log's lines after `after` up to `through`, computed here from the posting rule. */
async function replayedHash(after: string, through: string): Promise<{ hash: string; lines: number }> {
  const hash = createHash('sha256');
  let lines = 0;
  const end = parsePosition(through);
  let cursor = after === '' ? undefined : parsePosition(after);
  for (;;) {
    const batch = await t.store.readAll({ ...(cursor ? { after: cursor } : {}), limit: 500 });
    const inRange = batch.filter((event) => comparePositions(event.position, end) <= 0);
    for (const event of inRange) {
      const entry = journalEntryOf(readDomainEvent(event), { streamId: event.streamId, recordedAt: event.created.toISOString() });
      for (const [lineNo, line] of (entry?.lines ?? []).entries()) {
        hash.update(`${journalLineText(formatPosition(event.position), lineNo, entry!.businessDate, line)}\n`);
        lines += 1;
      }
    }
    if (inRange.length < batch.length || batch.length < 500) break;
    cursor = batch.at(-1)!.position;
  }
  return { hash: hash.digest('hex'), lines };
}

async function advance(days: unknown, who: SignedIn = admin): Promise<request.Response> {
  return request(t.app).post('/api/admin/business-date/advance').set(who.auth).send(days === undefined ? {} : { days });
}

beforeAll(async () => {
  t = await createTestApp('business_date', { env: { BUSINESS_DATE_MODE: 'manual', BUSINESS_DATE_START: START } });
  [admin, auditor, customer] = await Promise.all([t.staff('admin'), t.staff('auditor'), t.customer()]);
});

afterAll(async () => {
  await t?.close();
});

describe('the business date in manual mode', () => {
  it('starts at BUSINESS_DATE_START; money commands carry it, with the admin’s reason', async () => {
    const before = await request(t.app).get('/api/admin/business-date').set(auditor.auth).expect(200);
    expect(businessDateShape.parse(before.body.data)).toEqual({ businessDate: START, mode: 'manual', lastClosedDate: null });

    await request(t.app)
      .put(`/api/user/admin/account/${customer.userId}`)
      .set(admin.auth)
      .send({ savings: 100, checking: 50, number: customer.accountNumber, reason: 'Opening balances' })
      .expect(200);
    await request(t.app)
      .post(`/api/transaction/admin/${customer.userId}`)
      .set(admin.auth)
      .send({ amount: 20, transactionType: 'credit', date: START, description: 'Goodwill', reason: 'Complaint 42' })
      .expect(201);
    const money = (await t.store.readStream(streams.account(customer.userId))).filter((event) => ['BalanceAdjusted', 'StaffTransactionPosted'].includes(event.type));
    expect(money.map((event) => [event.type, event.data.businessDate])).toEqual([
      ['BalanceAdjusted', START],
      ['BalanceAdjusted', START],
      ['StaffTransactionPosted', START],
    ]);
    expect(money.at(-1)!.data.reason).toBe('Complaint 42');
  });

  it('refuses a reason over 500 characters on both admin money routes, changing nothing', async () => {
    const events = (await t.store.readAll({ limit: 100_000 })).length;
    const long = 'x'.repeat(501);
    const edit = await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: 1, checking: 1, number: customer.accountNumber, reason: long });
    expect([edit.status, edit.body.message]).toEqual([400, 'Reason must be at most 500 characters']);
    const posting = await request(t.app)
      .post(`/api/transaction/admin/${customer.userId}`)
      .set(admin.auth)
      .send({ amount: 1, transactionType: 'credit', date: START, description: 'x', reason: long });
    expect([posting.status, posting.body.message]).toEqual([400, 'Reason must be at most 500 characters']);
    expect((await t.store.readAll({ limit: 100_000 })).length).toBe(events);
  });

  it('closes each date once on an advance, balanced, with the hash of the day’s lines', async () => {
    const res = await advance(2);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(businessDateAdvanceShape.parse(res.body.data)).toEqual({ businessDate: addDays(START, 2), closed: [START, addDays(START, 1)] });
    // A command like the others: X-Event-Position of its last event (the second close), and answered once the read
    // models hold it, so the day closes read at once (no waiting) list both.
    const lastClose = (await t.store.readAll({ limit: 100_000 })).filter((event) => event.type === 'BusinessDayClosed').at(-1)!;
    expect(res.headers['x-event-position']).toBe(t.store.positionToken(lastClose.position));
    expect(res.headers['x-stale']).toBeUndefined();
    const days = await request(t.app).get('/api/audit/ledger/days').set(admin.auth).expect(200);
    expect(days.body.data.map((day: { businessDate: string }) => day.businessDate).slice(0, 2)).toEqual([addDays(START, 1), START]);
    expect((await request(t.app).get('/api/admin/business-date').set(admin.auth).expect(200)).body.data).toEqual({
      businessDate: addDays(START, 2),
      mode: 'manual',
      lastClosedDate: addDays(START, 1),
    });

    const [first, second] = await closes();
    // Six lines of money, two of the day's interest: 120.00 in savings at 5.00 % accrue 600,000,000 units a day
    // (1.64… cents), booked 0.02 (the month-to-date accrual rounded half to even).
    expect(first).toMatchObject({ businessDate: START, balanced: true, lineCount: 8 });
    expect(first!.totalDebitsCents).toBe(first!.totalCreditsCents);
    // 100 + 50 adjusted and 20 posted: the customers' control accounts owe 170.00, the staff accounts gave it.
    const account = (key: string) => first!.accounts.find((row) => row.key === key)!;
    expect(account('customer-savings')).toEqual({ key: 'customer-savings', debitsCents: '0', creditsCents: '12000' });
    expect(account('customer-checking')).toEqual({ key: 'customer-checking', debitsCents: '0', creditsCents: '5000' });
    expect(BigInt(account('staff-adjustments').debitsCents) + BigInt(account('staff-postings').debitsCents)).toBe(17000n);
    expect(account('interest-expense')).toEqual({ key: 'interest-expense', debitsCents: '2', creditsCents: '0' });
    expect(account('interest-payable')).toEqual({ key: 'interest-payable', debitsCents: '0', creditsCents: '2' });
    expect(await replayedHash('', first!.throughPosition)).toEqual({ hash: first!.journalHash, lines: 8 });
    // No money moved on the second date: only its interest, 0.01 more (3.28… cents to date, rounded to 0.03).
    expect(second).toMatchObject({ businessDate: addDays(START, 1), balanced: true, lineCount: 2 });
    const totals = (close: BusinessDayClose, key: string) => close.accounts.find((row) => row.key === key);
    expect(second!.accounts.filter((row) => !row.key.startsWith('interest-'))).toEqual(first!.accounts.filter((row) => !row.key.startsWith('interest-')));
    expect([totals(second!, 'interest-expense'), totals(second!, 'interest-payable')]).toEqual([
      { key: 'interest-expense', debitsCents: '3', creditsCents: '0' },
      { key: 'interest-payable', debitsCents: '0', creditsCents: '3' },
    ]);
    expect(await replayedHash(first!.throughPosition, second!.throughPosition)).toEqual({ hash: second!.journalHash, lines: 2 });
    // interest-payable reconciles with the accounts' interest booked and not yet paid.
    await t.settle();
    const reconciliation = (await request(t.app).get('/api/audit/ledger/reconciliation').set(auditor.auth).expect(200)).body.data;
    expect(reconciliation.ok).toBe(true);
    expect(reconciliation.controls.find((control: { key: string }) => control.key === 'interest-payable')).toEqual({ key: 'interest-payable', balance: 0.03, subledgerTotal: 0.03, difference: 0 });

    // Each step and each close once, in order.
    expect((await businessDays()).map((event) => [event.type, event.data.businessDate ?? event.data.firstDate])).toEqual([
      ['BusinessCalendarStarted', START],
      ...[START, addDays(START, 1)].flatMap((date) => [
        ['CobStepCompleted', date],
        ['CobStepCompleted', date],
        ['InterestAccrued', date],
        ['InterestBooked', date],
        ['CobStepCompleted', date],
        ['BusinessDayClosed', date],
      ]),
    ]);
  });

  it('pays a standing order on the COB of its date, on that business date; one created for today pays at once', async () => {
    const payer = await t.customer();
    await request(t.app)
      .put(`/api/user/admin/${payer.userId}`)
      .set(admin.auth)
      .send({ firstName: 'Pay', lastName: 'Er', email: payer.email, phone: '555-0100', location: { address: '1 Main', state: 'NY' }, paymentPin: '135790' })
      .expect(200);
    await request(t.app).put(`/api/user/admin/account/${payer.userId}`).set(admin.auth).send({ savings: 0, checking: 100, number: payer.accountNumber }).expect(200);
    await t.settle();
    const open = addDays(START, 2);
    const order = (firstDate: string) => ({
      from: 'checking',
      amount: 10,
      accountNumber: customer.accountNumber,
      accountType: 'savings',
      paymentPin: '135790',
      schedule: { frequency: 'monthly', day: Number(firstDate.slice(8, 10)), firstDate },
    });
    const today = await request(t.app).post('/api/standing-orders').set(payer.auth).send(order(open));
    expect(today.status, JSON.stringify(today.body)).toBe(201);
    expect(today.body.data.occurrences).toEqual([{ date: open, status: 'paid', transferId: expect.any(String), transactionId: expect.any(String) }]);
    const tomorrow = await request(t.app).post('/api/standing-orders').set(payer.auth).send(order(addDays(open, 1))).expect(201);
    expect(tomorrow.body.data.occurrences).toEqual([]);
    await t.settle();

    expect((await advance(undefined)).body.data).toEqual({ businessDate: addDays(open, 1), closed: [open] });
    expect((await advance(1)).body.data).toEqual({ businessDate: addDays(open, 2), closed: [addDays(open, 1)] });
    const debits = (await t.store.readStream(streams.account(payer.userId))).filter((event) => event.type === 'AccountDebited');
    expect(debits.map((event) => event.data.businessDate)).toEqual([open, addDays(open, 1)]);
    expect((await closes()).every((close) => close.balanced)).toBe(true);
  });

  it('never closes a date twice when two advances run at once', async () => {
    const from = (await request(t.app).get('/api/admin/business-date').set(admin.auth)).body.data.businessDate as string;
    const [a, b] = await Promise.all([advance(3), advance(3)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const closed = [...a.body.data.closed, ...b.body.data.closed].sort();
    expect(closed).toEqual([0, 1, 2, 3, 4, 5].map((days) => addDays(from, days)));
    const dates = (await closes()).map((close) => close.businessDate);
    expect(new Set(dates).size).toBe(dates.length);
    const steps = (await businessDays()).filter((event) => event.type === 'CobStepCompleted').map((event) => event.data.businessDate);
    expect(steps).toEqual(dates.flatMap((date) => [date, date, date]));
    expect((await request(t.app).get('/api/admin/business-date').set(admin.auth)).body.data.businessDate).toBe(addDays(from, 6));
  });

  it('refuses days outside 1–366 or not a whole number (400), and customers and auditors (403)', async () => {
    const before = (await businessDays()).length;
    for (const days of [0, -1, 367, 1.5, '2', null, true]) {
      const res = await advance(days);
      expect([res.status, res.body.message], JSON.stringify(days)).toEqual([400, 'days must be a whole number from 1 to 366']);
    }
    expect((await advance(1, auditor)).status).toBe(403);
    expect((await advance(1, customer)).status).toBe(403);
    expect((await businessDays()).length).toBe(before);
  });
});

describe('the business date in calendar mode', () => {
  it('is the UTC date; the advance is refused with 409', async () => {
    // The same bank's routes with the default settings (calendar mode).
    const deps: AppDeps = { ...t.deps, books: createAppBooks(t.deps, parseBooksSettings({})) };
    const app = express();
    app.locals.deps = deps;
    app.use(requestId());
    app.use('/api', ...jsonBody());
    app.use('/api', createBusinessDateRouter(deps));
    app.use(errorHandler(deps.logger));
    const res = await request(app).post('/api/admin/business-date/advance').set(admin.auth).send({ days: 1 });
    expect([res.status, res.body]).toEqual([409, { message: 'The business date follows the calendar' }]);
    const status = await request(app).get('/api/admin/business-date').set(auditor.auth).expect(200);
    expect(status.body.data).toMatchObject({ businessDate: new Date().toISOString().slice(0, 10), mode: 'calendar' });
  });
});

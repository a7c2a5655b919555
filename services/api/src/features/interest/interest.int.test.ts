import { inflateSync } from 'node:zlib';
import { streams } from '@bank/domain';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../statements/testing/pdfText';
import { createTestApp, type SignedIn, type SignedInWithFactor, type TestApp } from '../../testing/testApp';
import { interestShape, rateShape } from './interestShape';

/**
 * The interest routes on the real app in manual mode (PostgreSQL event store, projector): GET /rates (public), PUT
 * /admin/rates (an admin's audited change from tomorrow at the earliest; a second change for the same date replaces
 * the first), GET /interest and GET /audit/users/:id/interest from the interest read models, the PDF statement, and
 * the refusals (400, 401, 403, 404, 422).
 */
const START = '2026-03-30';
const UNITS_PER_CENT = 365_000_000n;
let t: TestApp;
let admin: SignedInWithFactor;
let auditor: SignedInWithFactor;
let customer: SignedIn;
let other: SignedIn;
/** A customer with $10,000 in savings from the first business date: paid by the close of business. */
let saver: SignedIn;

/** The text of a (compressed) PDF: every Flate stream inflated, then the shown strings. */
function textOfPdf(pdf: Buffer): string {
  const source = pdf.toString('latin1');
  const pages: string[] = [];
  for (const match of source.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    try {
      pages.push(inflateSync(Buffer.from(match[1]!, 'latin1')).toString('latin1'));
    } catch {
      // not a Flate stream (a font program): no text of ours
    }
  }
  return pdfText(Buffer.from(pages.join('\n'), 'latin1'));
}

function binary(res: request.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

/** PUT /admin/rates as `who` (null: without a token). */
const putRate = (body: unknown, who: SignedIn | null = admin) => {
  const req = request(t.app).put('/api/admin/rates');
  return (who ? req.set(who.auth) : req).send(body as object);
};

beforeAll(async () => {
  t = await createTestApp('interest_api', { env: { BUSINESS_DATE_MODE: 'manual', BUSINESS_DATE_START: START } });
  [admin, auditor, customer, other, saver] = await Promise.all([
    t.staff('admin'),
    t.staff('auditor'),
    t.customer({ firstName: 'Ada', lastName: 'Saver' }),
    t.customer(),
    t.customer({ firstName: 'Sam', lastName: 'Thrift' }),
  ]);
  await request(t.app).put(`/api/user/admin/account/${saver.userId}`).set(admin.auth).send({ savings: 10_000, checking: 0, number: saver.accountNumber }).expect(200);
});

afterAll(async () => {
  await t?.close();
});

describe('rates', () => {
  it('GET /rates is public: savings 5.00 % (APY 5.12) and checking 0 % from the first business date', async () => {
    const res = await request(t.app).get('/api/rates').expect(200);
    expect(res.body.data).toEqual([
      { account: 'savings', annualRate: 5, apy: 5.12, effectiveFrom: START },
      { account: 'checking', annualRate: 0, apy: 0, effectiveFrom: START },
    ]);
    for (const rate of res.body.data as unknown[]) rateShape.parse(rate);
  });

  it('PUT /admin/rates: 401 without a token, 403 for a customer and an auditor', async () => {
    const body = { account: 'savings', annualRate: 4, effectiveFrom: '2026-04-01' };
    await putRate(body, null).expect(401);
    await putRate(body, customer).expect(403);
    await putRate(body, auditor).expect(403);
  });

  it.each([
    [{ account: 'savings', annualRate: 25.0001, effectiveFrom: '2026-04-01' }, 'annualRate', 'annualRate must be a percentage from 0 to 25 with at most 4 decimals'],
    [{ account: 'savings', annualRate: 26, effectiveFrom: '2026-04-01' }, 'annualRate', 'annualRate must be a percentage from 0 to 25 with at most 4 decimals'],
    [{ account: 'savings', annualRate: -1, effectiveFrom: '2026-04-01' }, 'annualRate', 'annualRate must be a percentage from 0 to 25 with at most 4 decimals'],
    [{ account: 'savings', annualRate: 4.12345, effectiveFrom: '2026-04-01' }, 'annualRate', 'annualRate must be a percentage from 0 to 25 with at most 4 decimals'],
    [{ account: 'savings', annualRate: '4.12345', effectiveFrom: '2026-04-01' }, 'annualRate', 'annualRate must be a percentage from 0 to 25 with at most 4 decimals'],
    [{ account: 'savings', annualRate: 'five', effectiveFrom: '2026-04-01' }, 'annualRate', 'annualRate must be a percentage from 0 to 25 with at most 4 decimals'],
    [{ account: 'savings', effectiveFrom: '2026-04-01' }, 'annualRate', 'annualRate must be a percentage from 0 to 25 with at most 4 decimals'],
    [{ account: 'savings', annualRate: 4, effectiveFrom: '2026-02-30' }, 'effectiveFrom', 'effectiveFrom must be a date as YYYY-MM-DD'],
    [{ account: 'savings', annualRate: 4, effectiveFrom: 'tomorrow' }, 'effectiveFrom', 'effectiveFrom must be a date as YYYY-MM-DD'],
    [{ account: 'savings', annualRate: 4 }, 'effectiveFrom', 'effectiveFrom must be a date as YYYY-MM-DD'],
    [{ account: 'current', annualRate: 4, effectiveFrom: '2026-04-01' }, 'account', 'account must be savings or checking'],
  ])('PUT /admin/rates %j: 400 on %s', async (body, path, message) => {
    const res = await putRate(body).expect(400);
    expect(res.body).toMatchObject({ message, errors: [{ path, message }] });
  });

  it('PUT /admin/rates: 422 for a change from the current business date or before', async () => {
    for (const effectiveFrom of [START, '2026-03-29']) {
      const res = await putRate({ account: 'savings', annualRate: 4, effectiveFrom }).expect(422);
      expect(res.body).toEqual({ message: 'Rates change from tomorrow at the earliest' });
    }
  });

  it('an admin schedules a change from tomorrow; a second change for the same date replaces the first; an audited event', async () => {
    const first = await putRate({ account: 'savings', annualRate: 4.125, effectiveFrom: '2026-04-01' }).expect(200);
    expect(first.headers['x-event-position']).toBeDefined();
    expect(first.body.data).toEqual([
      { account: 'savings', annualRate: 5, apy: 5.12, effectiveFrom: START },
      { account: 'savings', annualRate: 4.125, apy: 4.2, effectiveFrom: '2026-04-01' },
      { account: 'checking', annualRate: 0, apy: 0, effectiveFrom: START },
    ]);
    // A string rate and tomorrow for checking; then the savings change of 04-01 replaced.
    await putRate({ account: 'checking', annualRate: '0.25', effectiveFrom: '2026-03-31' }).expect(200);
    const replaced = await putRate({ account: 'savings', annualRate: 4.25, effectiveFrom: '2026-04-01' }).expect(200);
    expect(replaced.body.data).toEqual([
      { account: 'savings', annualRate: 5, apy: 5.12, effectiveFrom: START },
      { account: 'savings', annualRate: 4.25, apy: 4.33, effectiveFrom: '2026-04-01' },
      { account: 'checking', annualRate: 0, apy: 0, effectiveFrom: START },
      { account: 'checking', annualRate: 0.25, apy: 0.25, effectiveFrom: '2026-03-31' },
    ]);
    const publicList = await request(t.app).get('/api/rates').expect(200);
    expect(publicList.body.data).toEqual(replaced.body.data);

    const events = (await t.store.readStream(streams.interestRates())).filter((event) => event.type === 'InterestRateScheduled');
    expect(events.map((event) => [event.data.account, event.data.annualRate, event.data.effectiveFrom, event.data.actorId])).toEqual([
      ['savings', 41_250, '2026-04-01', admin.userId],
      ['checking', 2_500, '2026-03-31', admin.userId],
      ['savings', 42_500, '2026-04-01', admin.userId],
    ]);
    expect(events.every((event) => event.metadata.actorRole === 'admin')).toBe(true);
    await t.settle();
    const log = await request(t.app).get('/api/audit/log').query({ type: 'InterestRateScheduled' }).set(auditor.auth).expect(200);
    expect(log.body.data).toHaveLength(3);
    expect(log.body.data[0]).toMatchObject({ action: 'InterestRateScheduled', actor: { id: admin.userId, role: 'admin' }, summary: 'savings rate 4.25 % a year from 2026-04-01' });
  });

  it('once the business date reaches a change, it is the rate in force and the one before is no longer listed', async () => {
    await request(t.app).post('/api/admin/business-date/advance').set(admin.auth).send({ days: 2 }).expect(200);
    const res = await request(t.app).get('/api/rates').expect(200);
    expect(res.body.data).toEqual([
      { account: 'savings', annualRate: 4.25, apy: 4.33, effectiveFrom: '2026-04-01' },
      { account: 'checking', annualRate: 0.25, apy: 0.25, effectiveFrom: '2026-03-31' },
    ]);
  });
});

describe('interest accrued and paid by the close of business', () => {
  it('March pays its exact accrual rounded half to even; April accrues from the balance with the payment, at the new rate', async () => {
    // By hand: 2026-03-30 and 03-31 at 5.00 % on 1,000,000 cents: 2 × 1,000,000 × 50,000 = 100,000,000,000 units
    // (1/365,000,000 cent) = 273.97… cents → 274 paid on 03-31, carry −10,000,000 units. 2026-04-01 at 4.25 % on
    // 1,000,274 cents (the payment counts from the next day): 42,511,645,000 units; with the carry 116.44… → 116.
    const march = 2n * 1_000_000n * 50_000n;
    const paid = (march * 2n + UNITS_PER_CENT) / (2n * UNITS_PER_CENT);
    expect(paid).toBe(274n);
    const carry = march - paid * UNITS_PER_CENT;
    expect(Number(carry)).toBe(-10_000_000);
    const april = (1_000_000n + paid) * 42_500n;
    expect((carry + april) / UNITS_PER_CENT).toBe(116n);

    await request(t.app).post('/api/admin/business-date/advance').set(admin.auth).send({ days: 1 }).expect(200);
    await t.settle();
    const res = await request(t.app).get('/api/interest').set(saver.auth).expect(200);
    expect(res.body.data).toEqual({
      year: 2026,
      annualRate: 4.25,
      apy: 4.33,
      accruedThisMonth: 1.16,
      paidThisYear: 2.74,
      payments: [{ date: '2026-03-31', amount: 2.74, account: 'savings' }],
    });
    // The statement (whole UTC days of the recording: today in manual mode) lists the payment like any credit.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const statement = await request(t.app).get('/api/statements').query({ account: 'savings', from: day(-1), to: day(1) }).set(saver.auth).expect(200);
    expect(statement.body.data.transactions).toEqual(expect.arrayContaining([expect.objectContaining({ description: 'Interest', kind: 'interest', amount: 2.74, type: 'credit', balanceAfter: 10_002.74 })]));
    const pdf = await request(t.app).get('/api/interest').query({ format: 'pdf' }).set(saver.auth).buffer(true).parse(binary).expect(200);
    const text = textOfPdf(pdf.body as Buffer);
    for (const expected of ['Sam Thrift', 'March 2026', '2026-03-31', '$2.74', '$1.16']) expect(text, expected).toContain(expected);
  });
});

describe('a customer’s interest', () => {
  it('a customer with nothing accrued or paid yet: zeros, the savings rate in force and its APY', async () => {
    const res = await request(t.app).get('/api/interest').set(other.auth).expect(200);
    expect(interestShape.parse(res.body.data)).toEqual({ year: 2026, annualRate: 4.25, apy: 4.33, accruedThisMonth: 0, paidThisYear: 0, payments: [] });
  });

  it('accrued this month (rounded half to even per account), the year’s payments, any year; staff read the same', async () => {
    const pool = t.deps.pool;
    // Savings: 3.5 cents accrued and no carry → 4 (half to even); checking: 0.5 cent → 0. (Marked at the latest
    // accrual, none here: the units are the month's, with nothing accrued since.)
    await pool.query(
      `INSERT INTO rm.interest_accounts (user_id, account, balance_cents, marked_units, carry_units, paid_cents)
       VALUES ($1, 'savings', 1000, $2, 0, 0), ($1, 'checking', 0, $3, 0, 0)
       ON CONFLICT (user_id, account) DO UPDATE SET marked_units = EXCLUDED.marked_units, carry_units = EXCLUDED.carry_units`,
      [customer.userId, String((7n * UNITS_PER_CENT) / 2n), String(UNITS_PER_CENT / 2n)],
    );
    const payment = (id: string, account: string, month: string, date: string, cents: number) =>
      pool.query(
        `INSERT INTO rm.interest_payments (transaction_id, user_id, account, month, business_date, amount_cents, accrued_units, carry_units)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0)`,
        [id, customer.userId, account, month, date, cents, String(BigInt(cents) * UNITS_PER_CENT)],
      );
    await payment('00000000-0000-4000-8000-000000000001', 'savings', '2025-12', '2025-12-31', 1234);
    await payment('00000000-0000-4000-8000-000000000002', 'savings', '2026-01', '2026-01-31', 4247);
    await payment('00000000-0000-4000-8000-000000000003', 'checking', '2026-02', '2026-02-28', 1);
    await payment('00000000-0000-4000-8000-000000000004', 'savings', '2026-02', '2026-02-28', 3836);

    const thisYear = await request(t.app).get('/api/interest').set(customer.auth).expect(200);
    expect(interestShape.parse(thisYear.body.data)).toEqual({
      year: 2026,
      annualRate: 4.25,
      apy: 4.33,
      accruedThisMonth: 0.04,
      paidThisYear: 80.84,
      payments: [
        { date: '2026-01-31', amount: 42.47, account: 'savings' },
        { date: '2026-02-28', amount: 38.36, account: 'savings' },
        { date: '2026-02-28', amount: 0.01, account: 'checking' },
      ],
    });
    const lastYear = await request(t.app).get('/api/interest').query({ year: '2025' }).set(customer.auth).expect(200);
    expect(lastYear.body.data).toMatchObject({ year: 2025, paidThisYear: 12.34, payments: [{ date: '2025-12-31', amount: 12.34, account: 'savings' }] });

    // Staff: any customer's, the same answer; the other customer sees only their own.
    for (const staff of [auditor, admin]) {
      const staffView = await request(t.app).get(`/api/audit/users/${customer.userId}/interest`).set(staff.auth).expect(200);
      expect(staffView.body.data).toEqual(thisYear.body.data);
    }
    const own = await request(t.app).get('/api/interest').set(other.auth).expect(200);
    expect(own.body.data.payments).toEqual([]);
  });

  it('the year’s interest statement as a PDF: the bank, the customer, each payment and the total', async () => {
    const res = await request(t.app).get('/api/interest').query({ format: 'pdf' }).set(customer.auth).buffer(true).parse(binary).expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="interest-2026.pdf"');
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = textOfPdf(pdf);
    for (const expected of ['Summit Bank', 'Interest statement', 'Tax year 2026', 'Ada Saver', 'January 2026', '$42.47', '$38.36', '$0.01', 'Total interest paid in 2026', '$80.84']) {
      expect(text, expected).toContain(expected);
    }
    const staffPdf = await request(t.app).get(`/api/audit/users/${customer.userId}/interest`).query({ year: 2025, format: 'pdf' }).set(auditor.auth).buffer(true).parse(binary).expect(200);
    expect(staffPdf.headers['content-disposition']).toBe('attachment; filename="interest-2025.pdf"');
    expect(textOfPdf(staffPdf.body as Buffer)).toContain('$12.34');
  });

  it.each([
    [{ year: '26' }, 'year', 'year must be a year as YYYY'],
    [{ year: 'abcd' }, 'year', 'year must be a year as YYYY'],
    [{ year: '2026-01' }, 'year', 'year must be a year as YYYY'],
    [{ year: ['2025', '2026'] }, 'year', 'year must be given once'],
    [{ format: 'csv' }, 'format', 'format must be json or pdf'],
  ])('GET /interest %j: 400 on %s', async (query, path, message) => {
    const res = await request(t.app).get('/api/interest').query(query).set(customer.auth).expect(400);
    expect(res.body).toMatchObject({ message, errors: [{ path, message }] });
    await request(t.app).get(`/api/audit/users/${customer.userId}/interest`).query(query).set(auditor.auth).expect(400);
  });

  it('401 without a token; 403 for a customer reading another customer’s interest; 404 for no such customer', async () => {
    await request(t.app).get('/api/interest').expect(401);
    await request(t.app).get(`/api/audit/users/${customer.userId}/interest`).expect(401);
    await request(t.app).get(`/api/audit/users/${customer.userId}/interest`).set(other.auth).expect(403);
    await request(t.app).get('/api/audit/users/00000000-0000-4000-8000-0000000000ff/interest').set(auditor.auth).expect(404);
    await request(t.app).get('/api/audit/users/not-a-user/interest').set(auditor.auth).expect(404);
  });
});

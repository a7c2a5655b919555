import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../testing/parseCsv';
import { createTestApp, type SignedIn, type TestApp } from '../../testing/testApp';
import { statementShape } from './statementShape';

/** GET /api/statements and GET /api/audit/users/:id/statements on the real app (auth, roles, validation, formats). */
let t: TestApp;
let customer: SignedIn;
let admin: SignedIn;
let auditor: SignedIn;
const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
/** To tomorrow: the postings (stamped now) are inside even if the day turns while the tests run. */
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const period = { account: 'checking', from: yesterday, to: tomorrow };

beforeAll(async () => {
  t = await createTestApp('statements_router');
  customer = await t.customer({ firstName: 'Stella', lastName: 'Statement' });
  admin = await t.staff('admin');
  auditor = await t.staff('auditor');
  for (const [amount, transactionType] of [
    [250.5, 'credit'],
    [20.25, 'debit'],
  ] as const) {
    await request(t.app)
      .post(`/api/transaction/admin/${customer.userId}`)
      .set(admin.auth)
      .send({ amount, transactionType, date: today, description: transactionType === 'credit' ? 'Salary, "May"' : '=SUM(A1)', account: 'checking' })
      .expect(201);
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /api/statements', () => {
  it('needs a customer (or admin) session', async () => {
    await request(t.app).get('/api/statements').query(period).expect(401);
    await request(t.app).get('/api/statements').query(period).set(auditor.auth).expect(403);
  });

  it('answers the statement in dollars, from the log', async () => {
    const res = await request(t.app).get('/api/statements').query(period).set(customer.auth).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const statement = statementShape.parse(res.body.data);
    expect(statement).toMatchObject({ account: 'checking', from: yesterday, to: tomorrow, customerName: 'Stella Statement', accountNumber: customer.accountNumber });
    expect(statement).toMatchObject({ openingBalance: 0, totalIn: 250.5, totalOut: 20.25, closingBalance: 230.25 });
    expect(statement.transactions.map((line) => [line.description, line.type, line.amount, line.balanceAfter])).toEqual([
      ['Salary, "May"', 'credit', 250.5, 250.5],
      ['=SUM(A1)', 'debit', 20.25, 230.25],
    ]);
    // Each line also carries the Transaction shape's names (API.md "Shapes"): `_id`, `transactionType`, `account`.
    for (const line of statement.transactions) expect(line).toMatchObject({ _id: line.id, transactionType: line.type, account: 'checking' });
    const savings = await request(t.app).get('/api/statements').query({ ...period, account: 'savings' }).set(customer.auth).expect(200);
    expect(savings.body.data).toMatchObject({ openingBalance: 0, closingBalance: 0, totalIn: 0, totalOut: 0, transactions: [] });
  });

  it('downloads the CSV: header, opening, the transactions (formulas kept as text), closing', async () => {
    const res = await request(t.app).get('/api/statements').query({ ...period, format: 'csv' }).set(customer.auth).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="statement-checking-${yesterday}-${tomorrow}.csv"`);
    const rows = parseCsv(res.text);
    expect(rows.map((row) => [row[2], row[3], row[4], row[5]])).toEqual([
      ['description', 'type', 'amount', 'balance_after'],
      ['Opening balance', 'opening', '', '0.00'],
      ['Salary, "May"', 'credit', '250.50', '250.50'],
      ["'=SUM(A1)", 'debit', '-20.25', '230.25'],
      ['Closing balance', 'closing', '', '230.25'],
    ]);
  });

  it('downloads the PDF', async () => {
    const res = await request(t.app)
      .get('/api/statements')
      .query({ ...period, format: 'pdf' })
      .set(customer.auth)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="statement-checking-${yesterday}-${tomorrow}.pdf"`);
    const pdf = res.body as Buffer;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
  });

  it.each([
    [{ from: yesterday, to: today }, 'account', 'account must be checking or savings'],
    [{ account: 'current', from: yesterday, to: today }, 'account', 'account must be checking or savings'],
    [{ account: 'checking', to: today }, 'from', 'from is required: a date as YYYY-MM-DD'],
    [{ account: 'checking', from: '2025-02-30', to: '2025-03-01' }, 'from', 'from must be a date as YYYY-MM-DD, e.g. 2025-03-01'],
    [{ account: 'checking', from: '2025-03-01', to: '1 March' }, 'to', 'to must be a date as YYYY-MM-DD, e.g. 2025-03-31'],
    [{ account: 'checking', from: '2025-03-02', to: '2025-03-01' }, 'to', 'from must not be after to'],
    [{ account: 'checking', from: '2024-01-01', to: '2025-01-01' }, 'to', 'A statement covers at most 366 days'],
    [{ account: 'checking', from: yesterday, to: today, format: 'xml' }, 'format', 'format must be json, csv or pdf'],
  ])('refuses %j with 400 on %s', async (query, path, message) => {
    const res = await request(t.app).get('/api/statements').query(query).set(customer.auth).expect(400);
    expect(res.body).toEqual({ message, errors: [{ path, message }] });
  });

  it('takes a leap year in full (366 days)', async () => {
    await request(t.app).get('/api/statements').query({ account: 'checking', from: '2024-01-01', to: '2024-12-31' }).set(customer.auth).expect(200);
  });
});

describe('GET /api/audit/users/:id/statements', () => {
  it("gives auditors and admins the customer's statement, the same as the customer's own", async () => {
    const own = await request(t.app).get('/api/statements').query(period).set(customer.auth).expect(200);
    for (const staff of [auditor, admin]) {
      const res = await request(t.app).get(`/api/audit/users/${customer.userId}/statements`).query(period).set(staff.auth).expect(200);
      expect(res.body).toEqual(own.body);
    }
    const csv = await request(t.app).get(`/api/audit/users/${customer.userId}/statements`).query({ ...period, format: 'csv' }).set(auditor.auth).expect(200);
    expect(parseCsv(csv.text)).toHaveLength(5);
  });

  it('is for staff only, 404 for an unknown customer, 400 for a bad query', async () => {
    await request(t.app).get(`/api/audit/users/${customer.userId}/statements`).query(period).set(customer.auth).expect(403);
    await request(t.app).get(`/api/audit/users/${customer.userId}/statements`).query(period).expect(401);
    await request(t.app).get('/api/audit/users/5b0c8e54-93b4-4c0c-9a43-1ab2a3f0e9aa/statements').query(period).set(auditor.auth).expect(404);
    await request(t.app).get('/api/audit/users/nope/statements').query(period).set(auditor.auth).expect(404);
    await request(t.app).get(`/api/audit/users/${customer.userId}/statements`).query({ ...period, account: 'gold' }).set(auditor.auth).expect(400);
  });
});

import { randomUUID } from 'node:crypto';
import { isDomainError } from '@bank/domain';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistoryBuilder, type Actor } from '../../testing/historyBuilder';
import { statementShape } from './statementShape';
import { createStatementTestApp, type StatementTestApp } from './testing/statementTestApp';

/**
 * For random histories stored through the bank's command handler at chosen instants: a statement's closing balance
 * is the auditors' balances-at of the period's last instant and the next period's opening balance, opening + in −
 * out = closing, and each transaction's balanceAfter follows from the one before.
 */
let t: StatementTestApp;
const admin: Actor = { id: randomUUID(), role: 'admin' };
const DAY = 86_400_000;
const BASE = Date.UTC(2025, 0, 1);
const day = (offset: number) => new Date(BASE + offset * DAY).toISOString().slice(0, 10);
const cents = (dollars: number) => Math.round(dollars * 100);

beforeAll(async () => {
  t = await createStatementTestApp('statements_property');
});

afterAll(async () => {
  await t?.close();
});

const posting = fc.record({
  /** Minutes after BASE: up to ~90 days, on day bounds too. */
  minute: fc.oneof(fc.integer({ min: 0, max: 90 * 1440 }), fc.integer({ min: 1, max: 90 }).map((d) => d * 1440), fc.integer({ min: 1, max: 90 }).map((d) => d * 1440 - 1)),
  account: fc.constantFrom('checking' as const, 'savings' as const),
  direction: fc.constantFrom('credit' as const, 'credit' as const, 'debit' as const),
  amountCents: fc.integer({ min: 1, max: 500_000 }),
});

let customers = 0;
let linesSeen = 0;

async function statement(userId: string, account: string, from: string, to: string) {
  const res = await request(t.app).get(`/audit/users/${userId}/statements`).query({ account, from, to });
  expect(res.status).toBe(200);
  return statementShape.parse(res.body.data);
}

describe('statements and the auditors replay (property, PostgreSQL)', () => {
  it('closing = balances-at(end) = next opening; opening + in − out = closing; balanceAfter chains', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(posting, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: -3, max: 60 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom('checking' as const, 'savings' as const),
        async (postings, first, length, nextLength, account) => {
          customers += 1;
          const history = createHistoryBuilder(t.store);
          const userId = await history.register(
            { firstName: 'Prop', lastName: `Erty${customers}`, email: `prop.${customers}.${randomUUID()}@example.com`, accountNumber: String(3_000_000_000 + customers) },
            new Date(BASE - DAY),
          );
          for (const p of [...postings].sort((a, b) => a.minute - b.minute)) {
            const at = new Date(BASE + p.minute * 60_000);
            const command = { type: 'PostStaffTransaction', transactionId: randomUUID(), adminId: admin.id, account: p.account, direction: p.direction, amountCents: p.amountCents, description: `${p.direction} ${p.amountCents}`, now: at.toISOString() } as const;
            try {
              await history.account(userId, { ...command, date: at.toISOString() }, admin, at);
            } catch (error) {
              if (!isDomainError(error)) throw error;
            }
          }
          const [from1, to1, from2, to2] = [day(first), day(first + length), day(first + length + 1), day(first + length + 1 + nextLength)];
          const one = await statement(userId, account, from1, to1);
          const two = await statement(userId, account, from2, to2);
          const balances = await request(t.app).get(`/audit/users/${userId}/balances`).query({ at: `${to1}T23:59:59.999Z` }).expect(200);
          expect(one.closingBalance).toBe(balances.body.data[account]);
          expect(two.openingBalance).toBe(one.closingBalance);
          const before = await request(t.app).get(`/audit/users/${userId}/balances`).query({ at: new Date(Date.parse(`${from1}T00:00:00.000Z`) - 1).toISOString() }).expect(200);
          expect(one.openingBalance).toBe(before.body.data[account]);
          for (const s of [one, two]) {
            expect(cents(s.openingBalance) + cents(s.totalIn) - cents(s.totalOut)).toBe(cents(s.closingBalance));
            let running = cents(s.openingBalance);
            for (const line of s.transactions) {
              running += line.type === 'credit' ? cents(line.amount) : -cents(line.amount);
              expect(cents(line.balanceAfter)).toBe(running);
              expect(line.date >= `${s.from}T00:00:00.000Z` && line.date <= `${s.to}T23:59:59.999Z`).toBe(true);
            }
            expect(running).toBe(cents(s.closingBalance));
            linesSeen += s.transactions.length;
          }
        },
      ),
      { numRuns: 15 },
    );
    // The histories are not all outside the periods: statements with transactions were compared.
    expect(linesSeen).toBeGreaterThan(0);
  }, 120_000);
});

import { randomUUID } from 'node:crypto';
import { streams } from '@bank/domain';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistoryBuilder } from '../../testing/historyBuilder';
import { appendLongHistory } from '../statements/testing/longHistory';
import { createStatementTestApp, type StatementTestApp } from '../statements/testing/statementTestApp';
import { balancesAt, replayAt, replayBalancesAt } from './balancesAt';

/**
 * The auditors' balances-at over a long account stream (2,345 postings appended straight to the store): read in
 * pages, folded as they arrive, only the newest transactions kept, and the same answer as a replay of the whole
 * stream read at once; the bounded read the same from far fewer events. Counts reads, never time.
 */
const COUNT = 2_345;
const START = new Date('2025-03-01T00:00:00.000Z');
const minute = (n: number) => new Date(START.getTime() + n * 60_000);

let t: StatementTestApp;
let userId = '';
let closingCents = 0;

beforeAll(async () => {
  t = await createStatementTestApp('balances_at_paged');
  userId = await createHistoryBuilder(t.store).register(
    { firstName: 'Paged', lastName: 'Merchant', email: `paged.${randomUUID()}@example.com`, accountNumber: '4000000777' },
    new Date('2025-02-01T00:00:00.000Z'),
  );
  closingCents = await appendLongHistory(t.store, userId, COUNT, START);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function wholeReplay(at: Date) {
  const events = [...(await t.store.readStream(streams.customer(userId))), ...(await t.store.readStream(streams.account(userId)))];
  return replayAt(userId, events, at);
}

describe('balances-at over a long account stream', () => {
  it('reads the stream a page at a time and answers what a replay of the whole stream gives', async () => {
    for (const at of [minute(COUNT + 10), minute(1_000), minute(-1), minute(499.5)]) {
      const pages: number[] = [];
      const answer = await replayBalancesAt(t.store, userId, at, { pageSize: 500, newest: 7, onPage: (events) => pages.push(events) });
      const whole = await wholeReplay(at);
      expect(answer).toMatchObject({
        savings: whole.balances.savingsCents / 100,
        checking: whole.balances.checkingCents / 100,
        transactionsTotal: whole.transactions.length,
        events: whole.applied,
      });
      expect(answer?.transactions.map((transaction) => transaction._id)).toEqual(
        whole.transactions.slice(-7).reverse().map((view) => view.transactionId),
      );
      // The customer stream in one page, then the account stream (1 + 2,345 events) in pages of at most 500.
      expect(pages.slice(1)).toEqual([500, 500, 500, 500, 346]);
      // The bounded read (balancesAtBounded.ts) answers the same from a page and a few events.
      const reads: number[] = [];
      expect(await balancesAt(t.store, userId, at, { pageSize: 500, newest: 7, onPage: (events) => reads.push(events) })).toEqual(answer);
      expect(reads.reduce((sum, events) => sum + events, 0)).toBeLessThan(600);
    }
  });

  it('answers the newest `limit` transactions over HTTP with the count of all and the final balance', async () => {
    const res = await request(t.app).get(`/audit/users/${userId}/balances`).query({ limit: 3 }).expect(200);
    expect(res.body.data).toMatchObject({ userId, checking: closingCents / 100, savings: 0, transactionsTotal: COUNT });
    expect(res.body.data.transactions.map((transaction: { description: string }) => transaction.description)).toEqual([
      `Posting ${COUNT}`,
      `Posting ${COUNT - 1}`,
      `Posting ${COUNT - 2}`,
    ]);
  });

  it('answers 404 for a customer the store does not hold', async () => {
    await request(t.app).get(`/audit/users/${randomUUID()}/balances`).expect(404);
  });
});

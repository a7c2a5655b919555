import { createAuditVerifier } from '@bank/audit';
import { startDayClose } from '@bank/books';
import { createInterestBook, isLastDayOfMonth, monthOf, parseStreamName, trialBalanceOf, type BankEvent, type BusinessDayClose } from '@bank/domain';
import { createPostgresEventStore, ensureEventStoreSchema, type EventStore, type RecordedEvent } from '@bank/eventstore';
import { createPool, parseKeyringText } from '@bank/platform';
import { migrateReadModels, verifyReadModels } from '@bank/projector';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGeneratedBank } from './loadGeneratedBank';
import type { SeedBankResult } from './seedBank';
import { seedCalendar } from './seedCalendar';

const { days: HISTORY_DAYS, firstDate: HISTORY_FIRST_DATE, lastDate: HISTORY_LAST_DATE } = seedCalendar();

/**
 * A generated bank's interest (the bulk path, as seed:scale loads it): the history is written day by day with each
 * day's close of business, and replaying the log with the domain's own interest book (createInterestBook, as
 * audit:verify does) finds every day's booking as recorded, every account paid once a month exactly what it was
 * owed, nothing left unpaid at a month's close, the books balanced and interest-payable back to zero.
 */
let database: TestDatabase;
let pool: pg.Pool;
let store: EventStore;
let seeded: SeedBankResult;
const options = { customers: 25, transactions: 300, seed: 5 };
const HASH = '$2a$10$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQ';
const chainKeys = parseKeyringText('chain', 'CHAIN_KEYS', `k1:${Buffer.alloc(32, 3).toString('base64')}`);
const checkpointKeys = parseKeyringText('checkpoint', 'CHECKPOINT_KEYS', `c1:${Buffer.alloc(32, 4).toString('base64')}`);
const checkpointDir = mkdtempSync(path.join(tmpdir(), 'seed-interest-checkpoints-'));

beforeAll(async () => {
  database = await createTestDatabase('seed_interest');
  pool = createPool(database.url, 6);
  await ensureEventStoreSchema(pool);
  await migrateReadModels(pool);
  store = createPostgresEventStore({ pool });
  ({ seeded } = await loadGeneratedBank({ ...options, pool, store, passwordHash: HASH, chainKeys, bulk: true, bulkEventsPerTransaction: 500, checkpoints: { dir: checkpointDir, keys: checkpointKeys } }));
  // A generated bank with its 396 days of history: over half the project's default hook timeout under CI's load.
}, 240_000);

afterAll(async () => {
  rmSync(checkpointDir, { recursive: true, force: true });
  await store?.close();
  await pool?.end();
  await database?.drop();
});

async function readLog(): Promise<RecordedEvent[]> {
  const log: RecordedEvent[] = [];
  for (let page = await store.readAll({ limit: 5_000 }); page.length > 0; page = await store.readAll({ after: page.at(-1)!.position, limit: 5_000 })) log.push(...page);
  return log;
}

describe('a generated bank pays interest', () => {
  it('closes every day of its history in order, each close balanced, and every month once', async () => {
    const { rows } = await pool.query<{ type: string; data: { businessDate: string; balanced?: boolean; month?: string } }>(
      `SELECT type, data FROM eventstore.events WHERE stream_id = 'businessDays' ORDER BY revision`,
    );
    const closes = rows.filter((row) => row.type === 'BusinessDayClosed');
    expect(closes.length).toBe(HISTORY_DAYS);
    expect(seeded.businessDays).toBe(HISTORY_DAYS);
    expect(closes[0]!.data.businessDate).toBe(HISTORY_FIRST_DATE);
    expect(closes.at(-1)!.data.businessDate).toBe(HISTORY_LAST_DATE);
    expect(closes.every((close) => close.data.balanced === true)).toBe(true);
    const accruals = rows.filter((row) => row.type === 'InterestAccrued').map((row) => row.data.businessDate);
    expect(accruals).toEqual(closes.map((close) => close.data.businessDate));
    expect(rows.filter((row) => row.type === 'InterestBooked').length).toBe(HISTORY_DAYS);
    const months = rows.filter((row) => row.type === 'InterestMonthClosed').map((row) => row.data.month!);
    expect(months).toEqual(closes.map((close) => close.data.businessDate).filter(isLastDayOfMonth).map(monthOf));
    expect(months.length).toBeGreaterThanOrEqual(12);
  });

  it('writes each day close the fold over its day as the store reads it back gives: every close equal, journal hash and positions included', async () => {
    // The bulk path folds each day in memory, with the positions and instants it gives the events as it writes them,
    // in transactions that cross days (500 events each here).
    let fold = startDayClose(null);
    let closes = 0;
    for (const recorded of await readLog()) {
      if (recorded.type === 'BusinessDayClosed') {
        const close = recorded.data as BusinessDayClose;
        expect(fold.result(close.businessDate, close.closedAt).data).toEqual(close);
        fold = startDayClose(close);
        closes += 1;
      }
      fold.add(recorded);
    }
    expect(closes).toBe(HISTORY_DAYS);
  });

  it('books and pays, replayed from the log by the domain’s interest book, exactly as recorded: each account once a month what it was owed', async () => {
    const book = createInterestBook();
    const paid = new Set<string>();
    let payments = 0;
    let paidCents = 0n;
    let month = '';
    for (const recorded of await readLog()) {
      const event = { type: recorded.type, data: recorded.data } as BankEvent;
      const source = { streamId: recorded.streamId, recordedAt: recorded.created.toISOString() };
      if (event.type === 'InterestAccrued') {
        const day = book.accrue(event.data.businessDate, event.data.rates);
        month = monthOf(event.data.businessDate);
        const booked = (await store.readStream('businessDays', { fromRevision: recorded.revision + 1n, limit: 1 }))[0]!;
        expect(booked.type).toBe('InterestBooked');
        expect(booked.data).toMatchObject({ businessDate: event.data.businessDate, accounts: day.accounts, accruedUnits: String(day.accruedUnits), bookedCents: Number(day.bookedCents) });
        continue;
      }
      if (event.type === 'AccountCredited' && event.data.interest !== undefined) {
        const userId = parseStreamName(recorded.streamId)!.id;
        const owed = book.account(userId, event.data.account)!;
        expect(event.data.interest.month).toBe(month);
        expect(BigInt(event.data.amountCents)).toBe(owed.bookedCents - owed.paidCents);
        expect(event.data.interest.accruedUnits).toBe(String(owed.carryUnits + owed.monthUnits));
        const key = `${userId}:${event.data.account}:${month}`;
        expect(paid.has(key)).toBe(false);
        paid.add(key);
        payments += 1;
        paidCents += BigInt(event.data.amountCents);
      }
      if (event.type === 'InterestMonthClosed') {
        const unpaid = [...book.accounts().values()].filter((account) => account.bookedCents > account.paidCents);
        expect(unpaid).toEqual([]);
        const closed = book.closeMonth();
        expect({ paidAccounts: event.data.paidAccounts, paidCents: event.data.paidCents }).toEqual({ paidAccounts: closed.paidAccounts, paidCents: String(closed.paidCents) });
        continue;
      }
      book.apply(event, source);
    }
    expect(payments).toBeGreaterThan(options.customers * 3);
    expect(payments).toBe(seeded.interestPayments);
    expect(paidCents).toBe(seeded.interestPaidCents);
    expect(paidCents).toBeGreaterThan(0n);
  });

  it('keeps the books: balanced, interest-payable back to zero after the last month, interest-expense the interest paid', async () => {
    const { rows } = await pool.query<{ key: string; debits: string; credits: string }>('SELECT key, debits_cents::text AS debits, credits_cents::text AS credits FROM rm.ledger_accounts');
    const trial = trialBalanceOf(new Map(rows.map((row) => [row.key, { debitsCents: BigInt(row.debits), creditsCents: BigInt(row.credits) }])));
    expect(trial.balanced).toBe(true);
    const balanceOf = (key: string) => trial.rows.find((row) => row.key === key)?.balanceCents ?? 0n;
    expect(balanceOf('interest-payable')).toBe(0n);
    expect(balanceOf('interest-expense')).toBe(seeded.interestPaidCents);
    const { rows: rm } = await pool.query<{ payments: string; cents: string }>(`SELECT count(*)::text AS payments, coalesce(sum(amount_cents), 0)::text AS cents FROM rm.interest_payments`);
    expect({ payments: Number(rm[0]!.payments), cents: BigInt(rm[0]!.cents) }).toEqual({ payments: seeded.interestPayments, cents: seeded.interestPaidCents });
  });

  it('passes the audit verification (interest replayed with createInterestBook) and the read models equal the replay', async () => {
    const report = await createAuditVerifier({ config: { EVENTSTORE_URL: undefined }, pool, store, chainKeys, checkpoints: { dir: checkpointDir, keys: checkpointKeys } })();
    expect(report.mismatches).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checked.events).toBe(seeded.events);
    expect((await verifyReadModels({ pool, store })).mismatches).toEqual([]);
  });
});

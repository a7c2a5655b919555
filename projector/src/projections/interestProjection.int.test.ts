import { createInterestBook, UNITS_PER_CENT, type BankEvent } from '@bank/domain';
import type { Position, RecordedEvent } from '@bank/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjections } from '../rebuild/rebuildProjections';
import { defaultProjections } from './defaultProjections';
import { defineProjection, type BatchWriter } from './projection';
import { halfEvenSql } from '../schema/halfEvenSql';
import { startProjector } from '../runner/projectorRunner';
import { appendHistory } from '../testing/appendHistory';
import { HANNA, INTEREST_ADMIN, interestHistory, type InterestHistory } from '../testing/interestHistory';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { untilHeadApplied } from '../testing/untilHeadApplied';
import { verifyReadModels } from '../verify/verifyReadModels';

/**
 * The interest projection against the domain's pure book (createInterestBook) over a random bank's log of two and
 * a half months (a leap February included): money events before and after each day's InterestAccrued, a rate
 * change, an account closed and still paid, one opened mid-month, overdrafts; the COB's interest events as it writes
 * them. Whatever the batches (one event, seven, the whole log, a rebuild), the read models hold what the book
 * holds, and one customer's January is the one computed by hand.
 */
const TABLES = ['interest_accounts', 'interest_accrued', 'interest_day_balances', 'interest_days', 'interest_months', 'interest_payments'] as const;
const SEED = 29;
let db: ProjectorTestDatabase;
let history: InterestHistory;
let last: Position | undefined;
/** The interest tables as the live projector built them in one batch (the first test). */
let whole: Record<string, unknown[]>;

async function interestRows(schema = 'rm'): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const { rows } = await db.pool.query<{ row: unknown }>(`SELECT to_jsonb(t) AS row FROM ${schema}.${table} t ORDER BY to_jsonb(t)::text`);
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

async function projectLive(batchSize: number): Promise<void> {
  await db.pool.query('DROP SCHEMA IF EXISTS rm CASCADE');
  const projector = startProjector({ pool: db.pool, store: db.store, batchSize });
  await projector.caughtUp;
  await untilHeadApplied(db.pool, db.store, { position: last! });
  await projector.stop();
}

async function readAll(): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (let page = await db.store.readAll({ limit: 1_000 }); page.length > 0; page = await db.store.readAll({ after: page.at(-1)!.position, limit: 1_000 })) all.push(...page);
  return all;
}

beforeAll(async () => {
  db = await createProjectorTestDatabase('interest_projection');
  history = interestHistory({ seed: SEED, first: '2028-01-01', last: '2028-03-16', customers: 8 });
  last = await appendHistory(db.store, history.events);
});
afterAll(async () => {
  await db.close();
});

describe('the interest projection', () => {
  it('holds what the domain’s book replays, whatever the batches; audit:verify agrees', async () => {
    await projectLive(5_000);
    whole = await interestRows();
    const report = await verifyReadModels({ pool: db.pool, store: db.store });
    expect(report.mismatches).toEqual([]);
    expect(report.ok).toBe(true);

    // The book over the log as stored, account by account.
    const book = createInterestBook();
    for (const event of await readAll()) book.apply({ type: event.type, data: event.data } as BankEvent, { streamId: event.streamId, recordedAt: event.created.toISOString() });
    const { rows } = await db.pool.query<{ user_id: string; account: string; month_units: string; carry_units: string; booked_cents: string; paid_cents: string; balance_cents: string }>(
      'SELECT user_id, account, month_units::text, carry_units::text, booked_cents::text, paid_cents::text, balance_cents::text FROM rm.interest_accrued',
    );
    expect(rows.length).toBe(history.customers.length * 2);
    for (const row of rows) {
      const want = book.account(row.user_id, row.account as 'savings')!;
      expect([row.month_units, row.carry_units, row.booked_cents, row.paid_cents, row.balance_cents], `${row.user_id} ${row.account}`).toEqual([
        String(want.monthUnits),
        String(want.carryUnits),
        String(want.bookedCents),
        String(want.paidCents),
        String(want.balanceCents),
      ]);
      // The carry never exceeds half a cent.
      expect(2n * (BigInt(row.carry_units) < 0n ? -BigInt(row.carry_units) : BigInt(row.carry_units)) <= UNITS_PER_CENT).toBe(true);
    }
    // Every payment once, as the COB made it; every month closed once.
    const paid = await db.pool.query<{ user_id: string; account: string; month: string; amount_cents: string }>(
      'SELECT user_id, account, month, amount_cents::text FROM rm.interest_payments ORDER BY month, user_id, account',
    );
    const key = (p: { userId: string; account: string; month: string; amountCents: number }) => `${p.month} ${p.userId} ${p.account} ${p.amountCents}`;
    expect(paid.rows.map((r) => key({ userId: r.user_id, account: r.account, month: r.month, amountCents: Number(r.amount_cents) }))).toEqual(history.payments.map(key).sort());
    expect((await db.pool.query<{ month: string }>('SELECT month FROM rm.interest_months ORDER BY month')).rows.map((r) => r.month)).toEqual(['2028-01', '2028-02']);
    // Every accrued day's totals were booked (the history books what the book accrued), and the day balances left
    // are those after the last accrual only.
    expect((await db.pool.query('SELECT 1 FROM rm.interest_days WHERE NOT booked')).rowCount).toBe(0);
    expect((await db.pool.query(`SELECT 1 FROM rm.interest_day_balances WHERE business_date <= '2028-03-16'`)).rowCount).toBe(0);

    for (const batchSize of [1, 7]) {
      await projectLive(batchSize);
      expect(await interestRows(), `batches of ${batchSize}`).toEqual(whole);
    }
    // A rebuild's batches hand the day balances no accrual of theirs folds over to the next (InterestBatch.handOver):
    // with batches of 1 and 7 events, over several batches in a row.
    for (const batchSize of [1, 7, 97]) {
      await projectLive(5_000);
      const result = await rebuildProjections({ pool: db.pool, store: db.store, batchSize });
      expect(result.events).toBeGreaterThan(0);
      expect(await interestRows(), `rebuilt in batches of ${batchSize}`).toEqual(whole);
    }
  });

  it('a rebuild whose batches are written again event by event writes first what the batch before handed over', async () => {
    // A batch writer that refuses every other batch of more than one event (not for a duplicate key): the load writes
    // each such batch again event by event, the interest projection's with it (one lane: every group of the batch
    // again, none written whole before: the refusing one is the lane's first), after a batch written whole that handed
    // its day balances over.
    let refused = 0;
    let made = 0;
    class RefusingBatch implements BatchWriter {
      events = 0;
      readonly refuses = (made += 1) % 2 === 0;
      statements() {
        return [];
      }
      async copy() {
        if (this.refuses && this.events > 1) {
          refused += 1;
          throw new Error('refused: more than one event');
        }
      }
    }
    const refusing = defineProjection({
      name: 'refusing',
      tables: {},
      handlers: {},
      createBatch: () => new RefusingBatch(),
      everyEvent: (_event, projectionDb) => {
        projectionDb.batch<RefusingBatch>().events += 1;
      },
    });
    await rebuildProjections({ pool: db.pool, store: db.store, batchSize: 7, parallel: 1, projections: [refusing, ...defaultProjections] });
    expect(refused).toBeGreaterThan(10);
    expect(await interestRows()).toEqual(whole);
  });

  it('pays Hanna’s January as computed by hand: 1,000.00 at 5.00 % for 31 days', async () => {
    // A day: 100,000 cents × 50,000 = 5,000,000,000 units (13.698630… cents). 31 days: 155,000,000,000 units =
    // 424.6575… cents, paid 4.25; carried 155,000,000,000 − 425 × 365,000,000 = −125,000,000 units (−0.342… cent).
    const { rows } = await db.pool.query<{ amount_cents: string; accrued_units: string; carry_units: string; business_date: string }>(
      `SELECT amount_cents::text, accrued_units::text, carry_units::text, to_char(business_date, 'YYYY-MM-DD') AS business_date
         FROM rm.interest_payments WHERE user_id = $1 AND account = 'savings' ORDER BY month`,
      [HANNA],
    );
    expect(rows[0]).toEqual({ amount_cents: '425', accrued_units: '155000000000', carry_units: '-125000000', business_date: '2028-01-31' });
    // February (29 days, leap year): 100,425 cents × 50,000 a day for 29 days = 145,616,250,000 units, plus the carry
    // −125,000,000 = 145,491,250,000 units = 398.6061… cents: 3.99 paid, −145,000,000 + … carried.
    const february = 100_425n * 50_000n * 29n - 125_000_000n;
    expect(rows[1]).toEqual({
      amount_cents: '399',
      accrued_units: String(february),
      carry_units: String(february - 399n * UNITS_PER_CENT),
      business_date: '2028-02-29',
    });
  });

  it('lists a rate change in the staff audit log', async () => {
    const { rows } = await db.pool.query<{ actor_id: string; actor_role: string; details: { annualRate: number; effectiveFrom: string } }>(
      `SELECT actor_id, actor_role, details FROM rm.staff_audit_log WHERE type = 'InterestRateScheduled'`,
    );
    expect(rows).toEqual([{ actor_id: INTEREST_ADMIN, actor_role: 'admin', details: expect.objectContaining({ account: 'savings', annualRate: 41_250, effectiveFrom: '2028-03-05' }) }]);
  });

  it('the round_half_even function, and the same rule written out, round ties to the even cent, both signs', async () => {
    const cases: [string, string][] = [
      ['182500000', '0'], // half a cent: to 0 (even)
      ['547500000', '2'], // 1.5 cents: to 2
      ['-182500000', '0'],
      ['-547500000', '-2'],
      ['182500001', '1'],
      ['-182500001', '-1'],
      ['364999999', '1'],
      ['0', '0'],
      ['155000000000', '425'],
    ];
    for (const [units, cents] of cases) {
      const { rows } = await db.pool.query<{ cents: string }>('SELECT rm.round_half_even($1::numeric, 365000000)::text AS cents', [units]);
      expect(rows[0]!.cents, units).toBe(cents);
      // The same rule written out for queries over many rows (the view rm.interest_accrued, the accrual's totals).
      const inline = await db.pool.query<{ cents: string }>(
        `SELECT (${halfEvenSql('h.q', 'h.r', '365000000')})::text AS cents FROM (SELECT div($1::numeric, 365000000) AS q, mod($1::numeric, 365000000) AS r) h`,
        [units],
      );
      expect(inline.rows[0]!.cents, units).toBe(cents);
    }
  });
});

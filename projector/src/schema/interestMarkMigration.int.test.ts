import { randomUUID } from 'node:crypto';
import { UNITS_PER_CENT } from '@bank/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InterestBatch } from '../projections/interest/interestBatch';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { migrateReadModels } from './migrateReadModels';
import { migrations } from './migrations';
import { readModelTables } from './readModelTables';

let db: ProjectorTestDatabase;

beforeAll(async () => {
  db = await createProjectorTestDatabase('interest_marks');
});

afterAll(async () => {
  await db?.close();
});

const roundHalfEven = (units: bigint): bigint => {
  const q = units / UNITS_PER_CENT;
  const r = units % UNITS_PER_CENT;
  if (2n * r < UNITS_PER_CENT) return q;
  if (2n * r > UNITS_PER_CENT) return q + 1n;
  return q % 2n === 0n ? q : q + 1n;
};

describe('migration 11: interest accrued when read', () => {
  it('keeps what an accruing bank holds, and the next accrual goes on from it', async () => {
    const schema = 'rm_marks';
    await migrateReadModels(db.pool, schema, migrations.filter((migration) => migration.version < 11));
    // Three days accrued by the old rule (every account written each day): savings at 5.00 % then 4.00 %, checking
    // at 0 then 1.00 %. Ada holds 1,000.00 in savings all along (and owes on checking); Ben's savings were emptied.
    const [ada, ben] = [randomUUID(), randomUUID()];
    const days: [string, number, number][] = [
      ['2026-10-05', 50_000, 0],
      ['2026-10-06', 50_000, 0],
      ['2026-10-07', 40_000, 10_000],
    ];
    for (const [index, [date, savings, checking]] of days.entries()) {
      await db.pool.query(
        `INSERT INTO ${schema}.interest_days (business_date, savings_rate, checking_rate, accounts, accrued_units, booked_cents, booked, accrued_position)
         VALUES ($1, $2, $3, 1, 0, 0, true, $4)`,
        [date, savings, checking, `p${index}`],
      );
    }
    const adaUnits = 100_000n * (50_000n + 50_000n + 40_000n);
    const carry = -125_000_000n;
    await db.pool.query(
      `INSERT INTO ${schema}.interest_accounts (user_id, account, balance_cents, month_units, carry_units, booked_cents, paid_cents) VALUES
         ($1, 'savings', 100000, $3, $4, $5, 0), ($1, 'checking', -5000, 0, 0, 0, 0),
         ($2, 'savings', 0, 7000000000, 0, 19, 0), ($2, 'checking', 0, 0, 0, 0, 0)`,
      [ada, ben, String(adaUnits), String(carry), String(roundHalfEven(carry + adaUnits))],
    );

    expect((await migrateReadModels(db.pool, schema, migrations.filter((migration) => migration.version <= 11))).applied).toEqual([11]);

    const sums = await db.pool.query(`SELECT to_char(business_date, 'YYYY-MM-DD') AS d, savings_rate_sum::text AS s, checking_rate_sum::text AS c FROM ${schema}.interest_days ORDER BY 1`);
    expect(sums.rows).toEqual([
      { d: '2026-10-05', s: '50000', c: '0' },
      { d: '2026-10-06', s: '100000', c: '0' },
      { d: '2026-10-07', s: '140000', c: '10000' },
    ]);
    const accrued = async () =>
      (
        await db.pool.query<{ user_id: string; account: string; month_units: string; booked_cents: string }>(
          `SELECT user_id, account, month_units::text, booked_cents::text FROM ${schema}.interest_accrued ORDER BY user_id = $1 DESC, account DESC`,
          [ada],
        )
      ).rows.map((row) => [row.user_id === ada ? 'ada' : 'ben', row.account, row.month_units, row.booked_cents]);
    // The view shows what the table held (the booked cents recomputed from the units: the same).
    expect(await accrued()).toEqual([
      ['ada', 'savings', String(adaUnits), String(roundHalfEven(carry + adaUnits))],
      ['ada', 'checking', '0', '0'],
      ['ben', 'savings', '7000000000', '19'],
      ['ben', 'checking', '0', '0'],
    ]);
    await expect(db.pool.query(`SELECT booked_cents FROM ${schema}.interest_accounts`)).rejects.toThrow(/booked_cents/);

    // One more day, accrued by the new rule: only Ada's savings accrue (checking is overdrawn, Ben holds nothing).
    const batch = new InterestBatch();
    batch.accrued('2026-10-08', 40_000, 10_000, 'p3');
    for (const statement of batch.statements(readModelTables(schema))) await db.pool.query(statement.text, statement.values);
    const next = adaUnits + 100_000n * 40_000n;
    expect(await accrued()).toEqual([
      ['ada', 'savings', String(next), String(roundHalfEven(carry + next))],
      ['ada', 'checking', '0', '0'],
      ['ben', 'savings', '7000000000', '19'],
      ['ben', 'checking', '0', '0'],
    ]);
    const day = await db.pool.query(`SELECT accounts, accrued_units::text, booked_cents::text FROM ${schema}.interest_days WHERE business_date = '2026-10-08'`);
    expect(day.rows).toEqual([
      { accounts: 1, accrued_units: String(100_000n * 40_000n), booked_cents: String(roundHalfEven(carry + next) - roundHalfEven(carry + adaUnits)) },
    ]);
  });
});

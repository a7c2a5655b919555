/**
 * `npm run bench:interest` (`-- --customers 1000000`, default 1M): the interest projection's set-based statements at
 * size, on a database of their own: rm.interest_accounts filled with every customer's savings and checking (random
 * balances, a third of them zero), a tenth of the accounts moved that day (rm.interest_day_balances), then timed:
 * the accrual of one business date as the live projector applies it (the accounts moved marked, the day's totals
 * computed over every account), a second date, a third as a rebuild applies it (its InterestBooked in the same
 * batch: the totals recorded, only the accounts moved written), the COB's walk over the accounts owed (keyset pages
 * of 2,000 of rm.interest_accrued), the payments of a month as the projector writes them (batches of 5,000
 * AccountCredited with `interest`) and the month's roll of the carry. Prints one JSON object as its last line.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { UNITS_PER_CENT } from '@bank/domain';
import { InterestBatch } from '../src/projections/interest/interestBatch';
import { migrateReadModels } from '../src/schema/migrateReadModels';
import { readModelTables } from '../src/schema/readModelTables';
import { createBenchDatabase } from './benchDatabase';

const { values: args } = parseArgs({ options: { customers: { type: 'string' }, keep: { type: 'boolean', default: false } } });
const customers = Number(args.customers ?? 1_000_000);
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const tables = readModelTables('rm');

const db = await createBenchDatabase(databaseUrl, 'interest');
const seconds = (started: number) => Math.round((performance.now() - started) / 10) / 100;
const figures: Record<string, number> = { customers, accounts: customers * 2 };
try {
  await migrateReadModels(db.pool);
  let started = performance.now();
  await db.pool.query(
    `INSERT INTO rm.interest_accounts (user_id, account, balance_cents)
     SELECT md5(i::text)::uuid, k.account, CASE WHEN random() < 0.33 THEN 0 ELSE (random() * 5000000)::bigint END
       FROM generate_series(1, $1::integer) AS i CROSS JOIN (VALUES ('savings'), ('checking')) AS k(account)`,
    [customers],
  );
  await db.pool.query(
    `INSERT INTO rm.interest_day_balances (user_id, account, business_date, balance_cents, position)
     SELECT user_id, account, '2028-01-01', (random() * 5000000)::bigint, '0' FROM rm.interest_accounts WHERE random() < 0.1`,
  );
  await db.pool.query('VACUUM ANALYZE rm.interest_accounts');
  await db.pool.query('ANALYZE rm.interest_day_balances');
  figures.loadSeconds = seconds(started);

  const run = async (batch: InterestBatch): Promise<number> => {
    const at = performance.now();
    for (const statement of batch.statements(tables)) await db.pool.query(statement.text, statement.values);
    return seconds(at);
  };
  const accrue = (date: string, position: string) => {
    const batch = new InterestBatch();
    batch.accrued(date, 50_000, 0, position);
    return run(batch);
  };
  figures.accrualSeconds = await accrue('2028-01-01', '1');
  figures.secondAccrualSeconds = await accrue('2028-01-02', '2');
  const day = await db.pool.query<{ accounts: number; accrued_units: string; booked_cents: string }>(
    `SELECT accounts, accrued_units::text, booked_cents::text FROM rm.interest_days WHERE business_date = '2028-01-02'`,
  );
  figures.accountsAccruing = day.rows[0]!.accounts;
  // A rebuild's day: InterestBooked follows in the batch with the totals the COB recorded. The bench times the
  // writes; the totals it passes are the second day's (the accounts' own figures are checked after the roll).
  await db.pool.query(
    `INSERT INTO rm.interest_day_balances (user_id, account, business_date, balance_cents, position)
     SELECT user_id, account, '2028-01-03', (random() * 5000000)::bigint, '3' FROM rm.interest_accounts WHERE random() < 0.1`,
  );
  const rebuilt = new InterestBatch();
  rebuilt.accrued('2028-01-03', 50_000, 0, '4');
  rebuilt.booked('2028-01-03', { accounts: day.rows[0]!.accounts, accruedUnits: day.rows[0]!.accrued_units, bookedCents: Number(day.rows[0]!.booked_cents) }, '5');
  figures.rebuildAccrualSeconds = await run(rebuilt);

  // The COB's walk over the accounts owed, as interestStep pages them.
  started = performance.now();
  const owed: { user_id: string; account: 'savings' | 'checking'; booked_cents: string }[] = [];
  let after: [string, string] = ['00000000-0000-0000-0000-000000000000', ''];
  for (;;) {
    const { rows } = await db.pool.query<{ user_id: string; account: 'savings' | 'checking'; booked_cents: string }>(
      `SELECT user_id, account, booked_cents::text, (carry_units + month_units)::text AS owed_units FROM rm.interest_accrued
        WHERE booked_cents > paid_cents AND (user_id, account) > ($1::uuid, $2::text) ORDER BY user_id, account LIMIT 2000`,
      after,
    );
    if (rows.length === 0) break;
    owed.push(...rows);
    after = [rows.at(-1)!.user_id, rows.at(-1)!.account];
  }
  figures.owedAccounts = owed.length;
  figures.owedWalkSeconds = seconds(started);

  // The payments as the projector applies them: 5,000 a batch.
  started = performance.now();
  for (let start = 0; start < owed.length; start += 5_000) {
    const batch = new InterestBatch();
    for (const [i, row] of owed.slice(start, start + 5_000).entries()) {
      const position = `p${String(start + i).padStart(12, '0')}`;
      batch.money(
        { userId: row.user_id, account: row.account, businessDate: '2028-01-04', balanceAfterCents: 1, position },
        { transactionId: randomUUID(), userId: row.user_id, account: row.account, month: '2028-01', businessDate: '2028-01-03', amountCents: Number(row.booked_cents), accruedUnits: '0', carryUnits: '0' },
      );
    }
    await run(batch);
  }
  figures.paymentsProjectedSeconds = seconds(started);

  const close = new InterestBatch();
  close.monthClosed('2028-01', '2028-01-03', owed.length, '0', 'z');
  figures.monthRollSeconds = await run(close);
  // Paid what it booked, every account carries its rounding difference: never more than half a cent.
  const carried = await db.pool.query<{ over: number; owed: number }>(
    `SELECT count(*) FILTER (WHERE 2 * abs(carry_units) > ${UNITS_PER_CENT})::integer AS over, count(*) FILTER (WHERE booked_cents <> 0 OR month_units <> 0)::integer AS owed
       FROM rm.interest_accrued`,
  );
  if (carried.rows[0]!.over !== 0 || carried.rows[0]!.owed !== 0) throw new Error(`The month's roll left ${JSON.stringify(carried.rows[0])} (want none over half a cent, none owed)`);
  console.log(`interest at ${customers.toLocaleString('en-US')} customers:`, figures);
  console.log(JSON.stringify(figures));
} finally {
  await db.drop(args.keep ?? false);
}

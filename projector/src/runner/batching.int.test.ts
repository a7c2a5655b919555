import { bankEvent } from '@bank/domain';
import type { RecordedEvent } from '@bank/eventstore';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedStatementsOf } from '../changes/preparedStatements';
import { defaultProjections } from '../projections/defaultProjections';
import { migrateReadModels } from '../schema/migrateReadModels';
import { READ_MODEL_TABLE_NAMES, readModelTables } from '../schema/readModelTables';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { generateWorkload } from '../testing/randomWorkload';
import { readModelSnapshot } from '../testing/readModelSnapshot';
import { testId, toRecordedEvents } from '../testing/recordedEvents';
import { at, sampleHistory } from '../testing/sampleHistory';
import { applyBatch, createBatchTarget, type BatchTarget } from './applyBatch';
import { EventDispatcher } from './eventDispatcher';
import { silentProjectorLogger } from './projectorLogger';

let db: ProjectorTestDatabase;
const dispatcher = new EventDispatcher(defaultProjections, silentProjectorLogger);
const batched = createBatchTarget({ tables: readModelTables('rm'), name: 'main', dispatcher, applyLock: true });
const oneByOne = createBatchTarget({ tables: readModelTables('rm_one'), name: 'one', dispatcher, applyLock: false });

async function reset(client: pg.ClientBase, target: BatchTarget): Promise<void> {
  const { tables } = target;
  await client.query(`TRUNCATE ${READ_MODEL_TABLE_NAMES.map((table) => `${tables.schema}.${table}`).join(', ')}, ${tables.checkpoint}`);
  await client.query(`INSERT INTO ${tables.checkpoint} (name) VALUES ($1)`, [target.name]);
}

async function apply(client: pg.ClientBase, target: BatchTarget, batches: readonly RecordedEvent[][]): Promise<void> {
  for (const batch of batches) {
    const { rows } = await client.query<{ position: string | null }>(`SELECT position FROM ${target.tables.checkpoint} WHERE name = $1`, [target.name]);
    await applyBatch(client, target, batch, rows[0]?.position ?? null);
  }
}

/** The events cut at `cuts` (indexes, in any order, repeats and out-of-range ones ignored). */
function split<T>(events: readonly T[], cuts: readonly number[]): T[][] {
  const bounds = [...new Set([0, ...cuts.filter((cut) => cut > 0 && cut < events.length), events.length])].sort((a, b) => a - b);
  return bounds.slice(1).map((end, i) => events.slice(bounds[i], end));
}

/**
 * A log as the projector may see it: a random valid workload (or the sample history, which has every event type),
 * with some events delivered again later (at-least-once delivery: a replay must change nothing).
 */
const logs = fc
  .record({
    source: fc.oneof(fc.constant('sample' as const), fc.integer({ min: 1, max: 1_000_000 })),
    size: fc.integer({ min: 20, max: 160 }),
    replays: fc.array(fc.tuple(fc.nat(), fc.nat(30)), { maxLength: 20 }),
  })
  .map(({ source, size, replays }) => {
    const events = toRecordedEvents(source === 'sample' ? sampleHistory() : generateWorkload({ events: size, seed: source }));
    // Mostly recent events come again: the case where a replayed change and a new one meet in one batch.
    for (const [at, back] of replays) {
      const index = at % (events.length + 1);
      if (index > 0) events.splice(index, 0, events[Math.max(0, index - 1 - back)]!);
    }
    return events;
  });

/** A staff deposit on a customer's account: the simplest money event, its balance after given. */
function staffDeposit(n: number, account: 'savings' | 'checking', balance: number) {
  return bankEvent('StaffTransactionPosted', {
    transactionId: testId(100 + n),
    account,
    amountCents: balance,
    direction: 'credit',
    description: 'Deposit',
    status: 'completed',
    occurredAt: at(n),
    balanceAfterCents: balance,
    adminId: testId(2),
    postedAt: at(n),
  });
}

beforeAll(async () => {
  db = await createProjectorTestDatabase('batching');
  await migrateReadModels(db.pool, 'rm');
  await migrateReadModels(db.pool, 'rm_one');
});
afterAll(async () => {
  await db.close();
});

describe('batching', () => {
  it('any split of an event sequence into batches gives the same tables as applying the events one by one', async () => {
    const client = await db.pool.connect();
    try {
      await fc.assert(
        fc.asyncProperty(logs, fc.array(fc.nat(200), { maxLength: 40 }), async (events, cuts) => {
          await reset(client, batched);
          await reset(client, oneByOne);
          await apply(client, oneByOne, events.map((event) => [event]));
          await apply(client, batched, split(events, cuts));
          expect(await readModelSnapshot(client, 'rm')).toEqual(await readModelSnapshot(client, 'rm_one'));
        }),
        // Stopped before the test's timeout: a failure found is reported with the counterexample shrunk so far
        // (a timeout would leave this loop running beside the next test, on the same tables); runs cut short on a
        // loaded machine count as they went.
        { numRuns: 20, interruptAfterTimeLimit: 150_000 },
      );
    } finally {
      client.release();
    }
  }, 180_000);

  // pg_prepared_statements counts, per statement of the connection, the executions on a generic plan and those
  // planned for their own values.
  it('plans each statement of a batch once per connection: later batches execute the prepared plans', async () => {
    const client = await db.pool.connect();
    const prepared = () =>
      client
        .query<{ statements: string; custom: string; generic: string }>(
          "SELECT count(*) AS statements, coalesce(sum(custom_plans), 0) AS custom, coalesce(sum(generic_plans), 0) AS generic FROM pg_prepared_statements WHERE name LIKE 'bank\\_batch\\_%'",
        )
        .then(({ rows }) => ({ statements: Number(rows[0]!.statements), custom: Number(rows[0]!.custom), generic: Number(rows[0]!.generic) }));
    try {
      // The pool may hand out the connection of the test before, with its statements still prepared: start from none.
      await preparedStatementsOf(client).discard(client);
      await reset(client, batched);
      const events = toRecordedEvents(generateWorkload({ events: 400, seed: 5 }));
      await apply(client, batched, split(events, Array.from({ length: 39 }, (_, i) => (i + 1) * 10)));
      const counts = await prepared();
      expect(counts.statements).toBeGreaterThan(3);
      expect(counts.custom).toBe(0);
      // Forty batches of the same kinds of events: each shape is executed again and again on its one plan.
      expect(counts.generic).toBeGreaterThan(4 * counts.statements);
      // The checkpoint's lock and advance among them: each prepared once, executed in each of the forty batches.
      // (`statement` is the whole script that prepared it: its own text follows `PREPARE <name> AS`.)
      const { rows: all } = await client.query<{ name: string; statement: string; runs: string }>(
        "SELECT name, statement, (generic_plans + custom_plans)::text AS runs FROM pg_prepared_statements WHERE name LIKE 'bank\\_batch\\_%'",
      );
      const checkpointRuns = all.flatMap((row) => {
        const own = row.statement.split(';\n').find((part) => part.startsWith(`PREPARE ${row.name} AS `)) ?? '';
        if (!/\.checkpoint\b/.test(own)) return [];
        return [`${/FOR UPDATE/.test(own) ? 'lock' : 'advance'} ${row.runs}`];
      });
      expect(checkpointRuns.sort()).toEqual(['advance 40', 'lock 40']);

      // A batch the server refuses (its checkpoint moved) leaves none of them behind; the next batch prepares again.
      await client.query(`UPDATE ${batched.tables.checkpoint} SET position = NULL WHERE name = $1`, [batched.name]);
      const more = toRecordedEvents(generateWorkload({ events: 40, seed: 6 }));
      await expect(applyBatch(client, batched, more, 'not-the-checkpoint')).rejects.toThrow(/checkpoint/i);
      expect((await prepared()).statements).toBe(0);
      await reset(client, batched);
      await apply(client, batched, [events.slice(0, 50), events.slice(50, 100)]);
      expect((await prepared()).statements).toBeGreaterThan(0);
    } finally {
      client.release();
    }
  });

  it('a change delivered again, next to a newer change of the same row in one batch, changes nothing', async () => {
    const userId = testId(1);
    const [opened, savings, savingsAgain, checking, checkingAgain] = toRecordedEvents([
      { stream: `account-${userId}`, event: bankEvent('AccountOpened', { userId, accountNumber: '1234567890', openedAt: at(0) }) },
      { stream: `account-${userId}`, event: staffDeposit(1, 'savings', 500) },
      { stream: `account-${userId}`, event: staffDeposit(2, 'savings', 800) },
      { stream: `account-${userId}`, event: staffDeposit(3, 'checking', 700) },
      { stream: `account-${userId}`, event: staffDeposit(4, 'checking', 900) },
    ]);
    const client = await db.pool.connect();
    try {
      await reset(client, batched);
      await reset(client, oneByOne);
      // The first savings deposit comes again once the row is past it, in a batch with a newer checking deposit:
      // its balance must not come back, the newer deposit must be applied.
      const batches = [[opened!, savings!, savingsAgain!, checking!], [savings!, checkingAgain!]];
      await apply(client, oneByOne, batches.flat().map((event) => [event]));
      await apply(client, batched, batches);
      expect(await readModelSnapshot(client, 'rm')).toEqual(await readModelSnapshot(client, 'rm_one'));
      const { rows } = await client.query('SELECT savings_cents, checking_cents FROM rm.accounts');
      expect(rows).toEqual([{ savings_cents: '800', checking_cents: '900' }]);
    } finally {
      client.release();
    }
  });

  it('a money event tagged with the day of the accrual before it counts from the day after, batched or not', async () => {
    const userId = testId(1);
    const deposit = (n: number, balance: number, businessDate: string) => ({ ...staffDeposit(n, 'savings', balance), data: { ...staffDeposit(n, 'savings', balance).data, businessDate } });
    const accrued = (businessDate: string) =>
      bankEvent('InterestAccrued', { businessDate, rates: { savings: 50_000, checking: 0 }, accruedAt: `${businessDate}T23:59:00.000Z` });
    // After the accrual of the 3rd, two deposits still tagged with the 3rd: both count from the 4th, the later one wins.
    const events = toRecordedEvents([
      { stream: `account-${userId}`, event: bankEvent('AccountOpened', { userId, accountNumber: '1234567890', openedAt: at(0) }) },
      { stream: `account-${userId}`, event: deposit(1, 500, '2030-01-03') },
      { stream: 'businessDays', event: accrued('2030-01-03') },
      { stream: `account-${userId}`, event: deposit(2, 800, '2030-01-03') },
      { stream: `account-${userId}`, event: deposit(3, 300, '2030-01-03') },
      { stream: 'businessDays', event: accrued('2030-01-04') },
    ]);
    const client = await db.pool.connect();
    try {
      await reset(client, oneByOne);
      await apply(client, oneByOne, events.map((event) => [event]));
      // Cut between the two deposits: the first is written by its batch, the second is held by the next batch,
      // whose accrual dates it; and every other cut.
      for (const cut of [1, 2, 3, 4, 5]) {
        await reset(client, batched);
        await apply(client, batched, split(events, [cut]));
        expect(await readModelSnapshot(client, 'rm'), `cut at ${cut}`).toEqual(await readModelSnapshot(client, 'rm_one'));
        const { rows } = await client.query('SELECT balance_cents FROM rm.interest_accounts WHERE account = $1', ['savings']);
        expect(rows, `cut at ${cut}`).toEqual([{ balance_cents: '300' }]);
      }
    } finally {
      client.release();
    }
  });

  it('an older money event delivered again after a newer one of the same account, in one batch, leaves the newer day balance', async () => {
    const userId = testId(1);
    const [opened, first, second] = toRecordedEvents([
      { stream: `account-${userId}`, event: bankEvent('AccountOpened', { userId, accountNumber: '1234567890', openedAt: at(0) }) },
      { stream: `account-${userId}`, event: staffDeposit(1, 'savings', 500) },
      { stream: `account-${userId}`, event: staffDeposit(2, 'savings', 800) },
    ]);
    const client = await db.pool.connect();
    try {
      await reset(client, batched);
      await apply(client, batched, [[opened!, first!], [second!, first!]]);
      const { rows } = await client.query('SELECT balance_cents FROM rm.interest_day_balances WHERE account = $1', ['savings']);
      expect(rows).toEqual([{ balance_cents: '800' }]);
    } finally {
      client.release();
    }
  });
});

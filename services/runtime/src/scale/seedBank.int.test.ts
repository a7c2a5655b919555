import { createPostgresEventStore, ensureEventStoreSchema, type EventStore } from '@bank/eventstore';
import { createPool } from '@bank/platform';
import { migrateReadModels, rebuildProjections, verifyReadModels } from '@bank/projector';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBank } from './seedBank';
import { planBudget, planTransactionCounts, plannedCustomer } from './seedPlan';
import { waitForLogPosition } from './waitForLogPosition';

let database: TestDatabase;
let pool: pg.Pool;
let store: EventStore;
const options = { customers: 40, transactions: 600, seed: 42 };
const HASH = '$2a$10$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQ';

beforeAll(async () => {
  database = await createTestDatabase('seed_scale');
  pool = createPool(database.url, 8);
  await ensureEventStoreSchema(pool);
  await migrateReadModels(pool);
  store = createPostgresEventStore({ pool });
});

afterAll(async () => {
  await store?.close();
  await pool?.end();
  await database?.drop();
});

const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0]!.n);

describe('the seed plan', () => {
  it('is the same for the same seed, and spreads exactly the asked postings with a long tail', () => {
    const counts = planTransactionCounts({ customers: 1_000, transactions: 20_000, seed: 42 });
    // The postings are what the transfers leave of the budget (seedTransfers.test.ts).
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(planBudget({ customers: 1_000, transactions: 20_000 }).postings);
    expect(planTransactionCounts({ customers: 1_000, transactions: 20_000, seed: 42 })).toEqual(counts);
    expect(planTransactionCounts({ customers: 1_000, transactions: 20_000, seed: 7 })).not.toEqual(counts);
    const ordinary = [...counts.slice(1)].sort((a, b) => a - b);
    expect(counts[0]).toBe(1_600);
    expect(ordinary[Math.floor(ordinary.length / 2)]!).toBeLessThan(20);
    expect(ordinary.at(-1)!).toBeGreaterThan(60);
    const numbers = new Set(Array.from({ length: 1_000 }, (_, i) => plannedCustomer({ customers: 1_000, transactions: 20_000, seed: 42 }, counts, i).accountNumber));
    expect(numbers.size).toBe(1_000);
  });
});

describe('seedBank', () => {
  it("writes the domain's events; the rebuild makes read models that agree with a replay; a second run adds nothing", async () => {
    const first = await seedBank({ ...options, store, passwordHash: HASH, chunk: 50 });
    expect(first.transactions).toBe(600);
    const stored = await count('SELECT count(*) AS n FROM eventstore.events');
    expect(stored).toBe(first.events);
    await waitForLogPosition(store, first.position!);
    await rebuildProjections({ pool, store });
    expect(await count(`SELECT count(*) AS n FROM rm.users WHERE role = 'customer'`)).toBe(40);
    expect(first.interestPayments).toBeGreaterThan(0);
    expect(await count(`SELECT count(*) AS n FROM rm.transactions`)).toBe(600 + first.interestPayments);
    expect(await count(`SELECT count(*) AS n FROM rm.transactions WHERE kind = 'interest'`)).toBe(first.interestPayments);
    expect(await count(`SELECT count(*) AS n FROM rm.users WHERE role = 'admin'`)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM rm.accounts WHERE savings_cents < 0 OR checking_cents < 0`)).toBe(0);
    const verified = await verifyReadModels({ pool, store });
    expect(verified.mismatches).toEqual([]);
    const again = await seedBank({ ...options, store, passwordHash: HASH, chunk: 50 });
    expect(again.events).toBe(first.events);
    expect(await count('SELECT count(*) AS n FROM eventstore.events')).toBe(stored);
  }, 240_000);

  it('finishes a load cut short (in the middle of its days) without duplicating what it had written', async () => {
    const more = { customers: 60, transactions: 900, seed: 43 };
    const other = await createTestDatabase('seed_scale_cut');
    const otherPool = createPool(other.url, 6);
    await ensureEventStoreSchema(otherPool);
    await migrateReadModels(otherPool);
    const otherStore = createPostgresEventStore({ pool: otherPool });
    const countIn = async (sql: string) => Number((await otherPool.query<{ n: string }>(sql)).rows[0]!.n);
    try {
      let stop = 0;
      await expect(
        seedBank({
          ...more,
          store: otherStore,
          passwordHash: HASH,
          chunk: 20,
          onDays: ({ days }) => {
            stop = days;
            if (days === 100) throw new Error('cut short');
          },
        }),
      ).rejects.toThrow('cut short');
      expect(stop).toBe(100);
      const before = await countIn('SELECT count(*) AS n FROM eventstore.events');
      expect(before).toBeGreaterThan(0);
      const finished = await seedBank({ ...more, store: otherStore, passwordHash: HASH, chunk: 20 });
      const after = await countIn('SELECT count(*) AS n FROM eventstore.events');
      expect(after).toBe(await countIn(`SELECT count(DISTINCT event_id) AS n FROM eventstore.events`));
      expect(after).toBe(finished.events);
      expect(after - before).toBeLessThan(finished.events);
      await waitForLogPosition(otherStore, finished.position!);
      await rebuildProjections({ pool: otherPool, store: otherStore });
      expect(await countIn(`SELECT count(*) AS n FROM rm.users WHERE role = 'customer'`)).toBe(60);
      expect(await countIn(`SELECT count(*) AS n FROM rm.transactions`)).toBe(900 + finished.interestPayments);
      expect((await verifyReadModels({ pool: otherPool, store: otherStore })).mismatches).toEqual([]);
    } finally {
      await otherStore.close();
      await otherPool.end();
      await other.drop();
    }
  }, 240_000);

  it('refuses to write its calendar into a store that holds another generated bank', async () => {
    await expect(seedBank({ customers: 5, transactions: 50, seed: 44, store, passwordHash: HASH })).rejects.toThrow(/another business calendar/);
  });
});

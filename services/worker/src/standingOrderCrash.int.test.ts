import { addDays, occurrencesBetween, streams, type Schedule } from '@bank/domain';
import type { RecordedEvent } from '@bank/eventstore';
import { startProjector, type ProjectorHandle } from '@bank/projector';
import { createTestStandingOrder, createTransferFixture, spawnTs, waitUntil, type Child, type TestCustomer, type TransferFixture, firstOutput } from '@bank/testkit';
import { occurrenceTransferId, type FaultPoint } from '@bank/transfers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '@bank/platform';

/**
 * The worker as a real process (services/worker/test/standingOrderClockScript.ts: startWorker, with the transfer
 * process and the close of business, whose first step pays the standing orders due on the date it closes, on a clock
 * the test steps) over 8 months of a monthly order on the 31st
 * and a weekly order, killed with SIGKILL at seeded random points — between ticks, and held at a point of a payment
 * (the payer debited and the occurrence not recorded, the payee's credit half done) — and started again where the
 * killed one was. Every occurrence is paid exactly once, and the money is exact.
 */
const PIN = '123456';
const CATCH_UP_DAYS = 7;
const FIRST_INSTANT = '2025-01-01T06:00:00.000Z';
const LAST_DAY = '2025-09-05';
const KILLS = 6;
const PAYMENT_POINTS: readonly FaultPoint[] = ['after-debit', 'before-credit', 'after-credit', 'after-complete'];

let fx: TransferFixture;
let projector: ProjectorHandle;
const children: Child[] = [];

/** The instants the clock goes through: 1 to CATCH_UP_DAYS days apart (so nothing is missed), to LAST_DAY. */
function clockSteps(next: () => number): string[] {
  const steps = [FIRST_INSTANT];
  while (steps.at(-1)!.slice(0, 10) < LAST_DAY) {
    const days = 1 + Math.floor(next() * CATCH_UP_DAYS);
    steps.push(new Date(Date.parse(steps.at(-1)!) + days * 86_400_000).toISOString());
  }
  return steps;
}

function startWorker(steps: readonly string[], start: number, holdAt?: string): Child {
  const child = spawnTs('services/worker/test/standingOrderClockScript.ts', {
    DATABASE_URL: fx.db.url,
    REDIS_URL: fx.redis.url,
    REDIS_PREFIX: fx.redis.prefix,
    CLOCK_STEPS: JSON.stringify(steps),
    CLOCK_START: String(start),
    STANDING_ORDER_CATCH_UP_DAYS: String(CATCH_UP_DAYS),
    COB_TICK_MS: '3600000',
    TRANSFER_SWEEP_EVERY_MS: '600000',
    ...(holdAt ? { HOLD_AT: holdAt } : {}),
  });
  children.push(child);
  return child;
}

/** The last step the process printed as done (-1 when none). */
function lastStepDone(child: Child): number {
  const done = [...child.output().matchAll(/^STEP (\d+) DONE$/gm)].map((match) => Number(match[1]));
  return done.length === 0 ? -1 : Math.max(...done);
}

function createOrder(payer: TestCustomer, payee: TestCustomer, amountCents: number, schedule: Schedule): Promise<string> {
  return createTestStandingOrder(fx, { payer, payee, amountCents, schedule, now: new Date(FIRST_INSTANT), description: 'Standing order crash test' });
}

const transferIdOf = (event: RecordedEvent): unknown => event.data.transferId;

beforeAll(async () => {
  fx = await createTransferFixture('standing_order_crash');
  // The read models (rm.standing_orders: the runner's list of orders) are kept by a projector in this process.
  projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
});

afterAll(async () => {
  await Promise.all(children.map((child) => child.kill()));
  await projector?.stop();
  await fx?.close();
});

describe('standing orders over 8 months in a worker process killed with SIGKILL at random points', () => {
  const seed = Date.now() % 1_000_000;
  // The ceiling is wide: a shared host has taken 155 s for the last worker's steps alone. What catches a stuck worker
  // is firstOutput's silence rule, not this.
  it(`pays every occurrence exactly once, the money exact (seed ${seed})`, { timeout: 900_000 }, async () => {
    const next = seededRandom(seed);
    const steps = clockSteps(next);
    const payer = await fx.openCustomer({ checkingCents: 10_000_00, pin: PIN });
    const payee = await fx.openCustomer();
    const monthly: Schedule = { frequency: 'monthly', day: 31, firstDate: '2025-01-31' };
    const weekly: Schedule = { frequency: 'weekly', day: 5, firstDate: '2025-01-01', endDate: '2025-08-31' };
    const orders = [
      { orderId: await createOrder(payer, payee, 100_00, monthly), schedule: monthly, amountCents: 100_00 },
      { orderId: await createOrder(payer, payee, 25_00, weekly), schedule: weekly, amountCents: 25_00 },
    ];

    // Runs until every step is done: the first KILLS processes are killed, each at a point the seed picks.
    const kills: string[] = [];
    let start = 0;
    let worker: Child | undefined;
    while (!worker) {
      const killing = kills.length < KILLS && steps.length - start > 20;
      // Every other kill holds the process at a point of a payment (the point and which payment, by the seed).
      const hold = killing && kills.length % 2 === 0 ? `${PAYMENT_POINTS[Math.floor(next() * PAYMENT_POINTS.length)]!}:${1 + Math.floor(next() * 2)}` : undefined;
      const killAfter = killing && !hold ? start + 1 + Math.floor(next() * 6) : undefined;
      const child = startWorker(steps, start, hold);
      const stops = ['ALL DONE', ...(hold ? [`HOLD ${hold.split(':')[0]!}`] : []), ...(killAfter !== undefined ? [`STEP ${killAfter} DONE`] : [])];
      const reached = await firstOutput(child, stops, 60_000);
      if (reached === 'ALL DONE') {
        worker = child;
        break;
      }
      // SIGKILL: at once, whatever the process is doing (after a step marker it is already in the next step's tick).
      await child.kill();
      expect(await child.exited).toBeNull();
      kills.push(hold ? `held at ${hold}` : `after step ${killAfter!}`);
      start = Math.max(start, lastStepDone(child) + 1);
    }
    expect(kills, `seed ${seed}`).toHaveLength(KILLS);
    expect(kills.filter((kill) => kill.startsWith('held at')), `seed ${seed}`).toHaveLength(KILLS / 2);
    // Every date before the clock's last day is closed (its COB paid its occurrences); the last day is still open.
    const end = addDays(steps.at(-1)!.slice(0, 10), -1);
    expect(end >= addDays(LAST_DAY, -1)).toBe(true);

    // Every scheduled occurrence up to the last day recorded once, as paid, with the transfer id derived from it.
    let totalCents = 0;
    const transferIds: string[] = [];
    for (const { orderId, schedule, amountCents } of orders) {
      const expected = occurrencesBetween(schedule, schedule.firstDate, end);
      const recorded = (await fx.store.readStream(streams.standingOrder(orderId))).filter((event) => event.type.startsWith('Occurrence'));
      expect(recorded.map((event) => [event.type, event.data.date]), `seed ${seed}, kills ${kills.join('; ')}`).toEqual(expected.map((date) => ['OccurrencePaid', date]));
      for (const event of recorded) expect(transferIdOf(event)).toBe(occurrenceTransferId(orderId, String(event.data.date)));
      transferIds.push(...recorded.map((event) => String(transferIdOf(event))));
      totalCents += expected.length * amountCents;
    }
    // The day-31 order went through the short months on their last day.
    expect(occurrencesBetween(monthly, monthly.firstDate, end)).toEqual(expect.arrayContaining(['2025-02-28', '2025-04-30', '2025-06-30']));
    expect(new Set(transferIds).size).toBe(transferIds.length);

    // The worker finishes the credits in flight; then each transfer has one debit and one credit, and no other.
    // (Counted by credits, not by balance: the payee's interest payments raise the balance too.)
    const transferCredits = async () =>
      (await fx.store.readStream(streams.account(payee.userId))).filter((event) => event.type === 'AccountCredited' && typeof transferIdOf(event) === 'string').length;
    await waitUntil(async () => (await transferCredits()) >= transferIds.length, { timeoutMs: 30_000, what: `the payee credited ${transferIds.length} times` });
    await worker.stop();
    const debits = (await fx.store.readStream(streams.account(payer.userId))).filter((event) => event.type === 'AccountDebited');
    const credits = (await fx.store.readStream(streams.account(payee.userId))).filter((event) => event.type === 'AccountCredited' && typeof transferIdOf(event) === 'string');
    expect(debits.map(transferIdOf).sort()).toEqual([...transferIds].sort());
    expect(credits.map(transferIdOf).sort()).toEqual([...transferIds].sort());
    expect(await fx.balances(payer.userId)).toEqual({ savings: 0, checking: 10_000_00 - totalCents });
    // The payee's savings also earn interest (the COB's interest step, at 5.00 %): paid once a month, from the
    // first month end after money arrived.
    const interest = (await fx.store.readStream(streams.account(payee.userId))).filter((event) => event.type === 'AccountCredited' && event.data.interest !== undefined);
    const months = interest.map((event) => (event.data.interest as { month: string }).month);
    expect(new Set(months).size, `seed ${seed}`).toBe(months.length);
    expect(months.length).toBeGreaterThanOrEqual(6);
    const interestCents = interest.reduce((sum, event) => sum + Number(event.data.amountCents), 0);
    expect(await fx.balances(payee.userId)).toEqual({ savings: totalCents + interestCents, checking: 0 });
    const paidDebits = [...(await fx.history(payer.userId)).transactions.values()].filter((tx) => tx.kind === 'transfer' && tx.direction === 'debit');
    expect(paidDebits).toHaveLength(transferIds.length);
    expect(paidDebits.filter((tx) => tx.status !== 'completed')).toEqual([]);
  });
});

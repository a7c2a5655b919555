import { randomUUID } from 'node:crypto';
import { addDays, occurrencesBetween, pendingOccurrence, standingOrderDecider, streams, type Schedule, type StandingOrder } from '@bank/domain';
import { manualClock, utcDate, type ManualClock } from '@bank/platform';
import { startProjector, type ProjectorHandle } from '@bank/projector';
import { createTestStandingOrder, createTransferFixture, waitUntil, type TestCustomer, type TransferFixture } from '@bank/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestTransfer } from './requestTransfer';
import { occurrenceTransferId, runDueStandingOrders, runStandingOrder, type StandingOrderRunnerDeps } from './standingOrderRunner';
import { startTransferProcess, type TransferProcessHandle } from './transferProcess';
import { seededRandom } from '@bank/platform';

/**
 * The standing-order runner against the real event store, projector and transfer process, driven by a clock the test
 * moves and run as the close of business runs it (@bank/books: its first step, for each date closed in turn, after the
 * date has ended): 14 months of a monthly order on the 31st and a weekly order, runs with new deps at random points,
 * a payment whose record was lost in a crash, a downtime longer than the catch-up window.
 */
const PIN = '123456';
const CATCH_UP_DAYS = 3;
let fx: TransferFixture;
let projector: ProjectorHandle;
let transfers: TransferProcessHandle;
const clock: ManualClock = manualClock('2025-01-01T06:00:00.000Z');

function deps(): StandingOrderRunnerDeps {
  return {
    commands: fx.commands,
    pool: fx.pool,
    transfer: { signals: fx.signals, creditWaitMs: 10_000 },
    clock,
    catchUpDays: CATCH_UP_DAYS,
  };
}

/** The COB's standing-order step for every date after `closed` and before today (calendar mode); answers the last date closed. */
async function closeDays(closed: string): Promise<string> {
  const today = utcDate(clock.now());
  let date = closed;
  while (addDays(date, 1) < today) {
    date = addDays(date, 1);
    await runDueStandingOrders(deps(), { through: date, today });
  }
  return date;
}

function createOrder(payer: TestCustomer, payee: TestCustomer, amountCents: number, schedule: Schedule): Promise<string> {
  return createTestStandingOrder(fx, { payer, payee, amountCents, schedule, now: clock.now() });
}

async function order(orderId: string): Promise<StandingOrder> {
  const events = await fx.store.readStream(streams.standingOrder(orderId));
  const state = events.map((event) => ({ type: event.type, data: event.data }) as Parameters<typeof standingOrderDecider.evolve>[1]).reduce(standingOrderDecider.evolve, standingOrderDecider.initialState);
  if (state.status === 'none') throw new Error(`no order ${orderId}`);
  return state;
}

async function occurrenceEvents(orderId: string): Promise<{ type: string; date: string; transferId?: string; reason?: string }[]> {
  const events = await fx.store.readStream(streams.standingOrder(orderId));
  return events.filter((event) => event.type.startsWith('Occurrence')).map((event) => ({ type: event.type, ...(event.data as { date: string; transferId?: string; reason?: string }) }));
}

/**
 * What an instance that died between paying an occurrence and recording it leaves: the occurrence's transfer, through
 * the same path and id as the runner's, and no record. True when there was a due occurrence to pay.
 */
async function payDueWithoutRecord(orderId: string, schedule: Schedule, payer: TestCustomer, payee: TestCustomer): Promise<boolean> {
  const state = await order(orderId);
  const date = pendingOccurrence(state);
  const today = utcDate(clock.now());
  if (state.status !== 'active' || date === undefined || date > today || date < addDays(today, -CATCH_UP_DAYS)) return false;
  expect(occurrencesBetween(schedule, date, date)).toEqual([date]);
  await requestTransfer(
    { commands: fx.commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 10_000, now: () => clock.now() },
    {
      userId: payer.userId,
      input: { from: state.from, amountCents: state.amountCents, accountNumber: payee.accountNumber, accountType: state.accountType, description: state.description, paymentPin: undefined },
      authorised: { standingOrderId: orderId, transferId: occurrenceTransferId(orderId, date) },
    },
  );
  return true;
}

beforeAll(async () => {
  fx = await createTransferFixture('standing_orders');
  projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
  transfers = startTransferProcess({ store: fx.store, commands: fx.commands, pool: fx.pool, signals: fx.signals });
  await transfers.ready;
});

afterAll(async () => {
  await transfers?.stop();
  await projector?.stop();
  await fx?.close();
});

describe('standing orders over 14 months', () => {
  const seed = Date.now() % 1_000_000;
  it(`pays each occurrence exactly once through restarts, a lost record and a downtime (seed ${seed})`, { timeout: 240_000 }, async () => {
    const next = seededRandom(seed);
    clock.set('2025-01-01T06:00:00.000Z');
    const payer = await fx.openCustomer({ checkingCents: 10_000_00, pin: PIN });
    const payee = await fx.openCustomer();
    const monthly: Schedule = { frequency: 'monthly', day: 31, firstDate: '2025-01-31' };
    const weekly: Schedule = { frequency: 'weekly', day: 5, firstDate: '2025-01-01', endDate: '2026-02-28' };
    const monthlyId = await createOrder(payer, payee, 100_00, monthly);
    const weeklyId = await createOrder(payer, payee, 25_00, weekly);
    const before = { payer: await fx.balances(payer.userId), payee: await fx.balances(payee.userId) };

    let closed = await closeDays('2024-12-31');
    const downtimeFrom = '2025-09-10';
    let downtime: { last: string; restart: string } | undefined;
    let lostRecords = 0;
    // Dates on which the API's trigger paid the open date's occurrences early.
    const triggered = new Set<string>();
    let restarts = 0;
    while (utcDate(clock.now()) < '2026-03-05') {
      const today = utcDate(clock.now());
      const days = !downtime && today >= downtimeFrom ? 12 : 1 + Math.floor(next() * CATCH_UP_DAYS);
      clock.advance(days * 86_400_000);
      if (days === 12) downtime = { last: today, restart: utcDate(clock.now()) };
      if (days === 12 || next() < 0.15) {
        // A crash (or a deploy) that lost the record of a payment made; the next COB finds the payment.
        restarts += 1;
        if (next() < 0.5 && (await payDueWithoutRecord(weeklyId, weekly, payer, payee))) lostRecords += 1;
        closed = await closeDays(closed);
      } else if (next() < 0.2) {
        // The same order run twice at once (the COB and an API's trigger, which pays through the open date).
        triggered.add(utcDate(clock.now()));
        [closed] = await Promise.all([closeDays(closed), runStandingOrder(deps(), weeklyId), runStandingOrder(deps(), monthlyId)]);
      } else {
        closed = await closeDays(closed);
      }
    }
    // The dates closed are settled; the API's triggers may have paid the open date's occurrences already.
    const end = closed;
    expect(restarts).toBeGreaterThan(0);
    expect(downtime).toBeDefined();

    for (const [orderId, schedule, amount] of [
      [monthlyId, monthly, 100_00],
      [weeklyId, weekly, 25_00],
    ] as const) {
      const expected = occurrencesBetween(schedule, schedule.firstDate, end);
      const recorded = (await occurrenceEvents(orderId)).filter((event) => event.date <= end);
      // Every occurrence settled once, in order.
      expect(recorded.map((event) => event.date), `seed ${seed}, ${lostRecords} lost records`).toEqual(expected);
      for (const event of recorded) {
        // The COB of the last date before the downtime would have run during it: that date is missed too, unless the
        // API's trigger paid it on the day.
        const missedByDowntime =
          downtime !== undefined &&
          (event.date > downtime.last || (event.date === downtime.last && !triggered.has(downtime.last))) &&
          event.date < addDays(downtime.restart, -CATCH_UP_DAYS);
        expect(event.type, `${event.date} seed ${seed}`).toBe(missedByDowntime ? 'OccurrenceMissed' : 'OccurrencePaid');
        if (event.type === 'OccurrencePaid') expect(event.transferId).toBe(occurrenceTransferId(orderId, event.date));
      }
      const paid = recorded.filter((event) => event.type === 'OccurrencePaid');
      // The payer's account holds one debit per paid occurrence, each completed, and no other for this order.
      const history = await fx.history(payer.userId);
      const debits = [...history.transactions.values()].filter((tx) => tx.kind === 'transfer' && tx.direction === 'debit' && paid.some((event) => event.transferId === tx.transferId));
      expect(debits).toHaveLength(paid.length);
      expect(new Set(debits.map((tx) => tx.transferId)).size).toBe(paid.length);
      for (const debit of debits) expect([debit.amountCents, debit.status]).toEqual([amount, 'completed']);
    }
    const monthlyDates = (await occurrenceEvents(monthlyId)).map((event) => event.date);
    expect(monthlyDates.slice(0, 3)).toEqual(['2025-01-31', '2025-02-28', '2025-03-31']);
    expect(monthlyDates).toContain('2026-02-28');

    // Money: what left the payer reached the payee, nothing more, nothing twice.
    const paidCents = async (orderId: string, amount: number) => (await occurrenceEvents(orderId)).filter((event) => event.type === 'OccurrencePaid').length * amount;
    const total = (await paidCents(monthlyId, 100_00)) + (await paidCents(weeklyId, 25_00));
    await waitUntil(async () => (await fx.balances(payee.userId)).savings === before.payee.savings + total, { what: 'the payee credits' });
    expect(await fx.balances(payer.userId)).toEqual({ savings: before.payer.savings, checking: before.payer.checking - total });
    expect(await fx.balances(payee.userId)).toEqual({ savings: before.payee.savings + total, checking: before.payee.checking });
  });
});

describe('a crash between an occurrence’s payment and its record', () => {
  it('leaves the payment to be recorded by the next run, not paid again', async () => {
    clock.set('2027-01-04T06:00:00.000Z');
    const payer = await fx.openCustomer({ checkingCents: 500_00, pin: PIN });
    const payee = await fx.openCustomer();
    const schedule: Schedule = { frequency: 'weekly', day: 1, firstDate: '2027-01-04' };
    const orderId = await createOrder(payer, payee, 40_00, schedule);
    expect(await payDueWithoutRecord(orderId, schedule, payer, payee)).toBe(true);
    // The COB of 2027-01-04, run the next day.
    clock.advance(86_400_000);
    await runDueStandingOrders(deps(), { through: '2027-01-04', today: utcDate(clock.now()) });
    expect(await occurrenceEvents(orderId)).toMatchObject([{ type: 'OccurrencePaid', date: '2027-01-04', transferId: occurrenceTransferId(orderId, '2027-01-04') }]);
    expect(await fx.balances(payer.userId)).toEqual({ savings: 0, checking: 460_00 });
  });
});

describe('an occurrence refused for lack of funds', () => {
  it('is recorded as failed with the reason; three in a row suspend the order until it is resumed', async () => {
    clock.set('2027-03-01T06:00:00.000Z');
    const payer = await fx.openCustomer({ checkingCents: 150_00, pin: PIN });
    const payee = await fx.openCustomer();
    const orderId = await createOrder(payer, payee, 100_00, { frequency: 'weekly', day: 1, firstDate: '2027-03-01' });
    // Created on its first date, the order pays it at once (as the API does, through the open business date).
    expect(await runStandingOrder(deps(), orderId)).toMatchObject([{ date: '2027-03-01', outcome: { status: 'paid' } }]);
    expect((await occurrenceEvents(orderId)).map((event) => event.type)).toEqual(['OccurrencePaid']);
    // The COB of each of the next three Mondays; the fourth Monday stays open.
    for (let week = 1; week <= 4; week += 1) {
      clock.advance(7 * 86_400_000);
      const monday = utcDate(clock.now());
      if (week < 4) await runDueStandingOrders(deps(), { through: monday, today: monday });
    }
    const recorded = await occurrenceEvents(orderId);
    expect(recorded.map((event) => [event.type, event.date])).toEqual([
      ['OccurrencePaid', '2027-03-01'],
      ['OccurrenceFailed', '2027-03-08'],
      ['OccurrenceFailed', '2027-03-15'],
      ['OccurrenceFailed', '2027-03-22'],
    ]);
    expect(recorded[1]!.reason).toBe('You do not have enough balance');
    const suspended = await order(orderId);
    expect(suspended).toMatchObject({ status: 'suspended', suspendedReason: '3 payments in a row failed (last: You do not have enough balance)' });
    await waitUntil(async () => (await fx.pool.query(`SELECT status FROM rm.standing_orders WHERE id = $1`, [orderId])).rows[0]?.status === 'suspended', { what: 'the suspension in rm' });
    expect(await fx.balances(payer.userId)).toEqual({ savings: 0, checking: 50_00 });

    // Resumed on Monday 2027-03-29, after money came in: it pays again from that day's occurrence.
    await fx.commands.execute({
      decider: standingOrderDecider,
      streamId: streams.standingOrder(orderId),
      decide: (state) => standingOrderDecider.decide({ type: 'ResumeStandingOrder', userId: payer.userId, today: utcDate(clock.now()), now: clock.now().toISOString() }, state),
      context: { metadata: { actorId: payer.userId, actorRole: 'customer' } },
      commandType: 'ResumeStandingOrder',
    });
    await waitUntil(async () => (await fx.pool.query(`SELECT status FROM rm.standing_orders WHERE id = $1`, [orderId])).rows[0]?.status === 'active', { what: 'the resume in rm' });
    const funder = await fx.openCustomer({ checkingCents: 100_00, pin: PIN });
    await requestTransfer(
      { commands: fx.commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 10_000 },
      { userId: funder.userId, input: { from: 'checking', amountCents: 100_00, accountNumber: payer.accountNumber, accountType: 'checking', paymentPin: PIN }, idempotencyKey: randomUUID() },
    );
    expect(utcDate(clock.now())).toBe('2027-03-29');
    const outcomes = await runDueStandingOrders(deps(), { through: '2027-03-29', today: '2027-03-29' });
    expect(outcomes.filter((outcome) => outcome.orderId === orderId)).toMatchObject([{ orderId, date: '2027-03-29', outcome: { status: 'paid' } }]);
    expect(await fx.balances(payer.userId)).toEqual({ savings: 0, checking: 50_00 });
  });
});

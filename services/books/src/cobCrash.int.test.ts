import { createHash } from 'node:crypto';
import { readDomainEvent } from '@bank/commands';
import { addDays, isLastDayOfMonth, emptyLedgerTotals, addEntryToTotals, journalEntryOf, journalLineText, occurrencesBetween, streams, totalsToStored, type BusinessDayClose, type Schedule } from '@bank/domain';
import { comparePositions, formatPosition, parsePosition, type RecordedEvent } from '@bank/eventstore';
import { seededRandom } from '@bank/platform';
import { startProjector, type ProjectorHandle } from '@bank/projector';
import { createTestStandingOrder, createTransferFixture, spawnTs, type Child, type TransferFixture, firstOutput } from '@bank/testkit';
import { occurrenceTransferId } from '@bank/transfers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CobFaultPoint } from './cobFaults';

/** The fault points every date passes (the interest payments' only on a month's last day with interest owed). */
const DAILY_POINTS: readonly CobFaultPoint[] = ['after-standing-orders', 'after-interest-accrued', 'before-close'];

/**
 * The COB as a real process (test/cobScript.ts: manual business dates, the standing-order step and the day close)
 * advancing five weeks of dates with standing orders due on most of them, killed with SIGKILL at seeded random
 * points — held after a date's standing orders were paid and before the step was recorded, held after the day's
 * totals were computed and before the close was appended, or between two dates — and started again. Each step and
 * each close is recorded exactly once per date, in order; every occurrence is paid once, on its business date; every
 * close balances and its hash and totals are those of a replay of the log.
 */
const START = '2026-01-26';
const UNTIL = '2026-02-28';
const KILLS = 6;

let fx: TransferFixture;
let projector: ProjectorHandle;
const children: Child[] = [];

function startCob(holdAt?: string): Child {
  const child = spawnTs('services/books/test/cobScript.ts', {
    DATABASE_URL: fx.db.url,
    REDIS_URL: fx.redis.url,
    REDIS_PREFIX: fx.redis.prefix,
    BUSINESS_DATE_MODE: 'manual',
    BUSINESS_DATE_START: START,
    COB_UNTIL: UNTIL,
    ...(holdAt ? { HOLD_AT: holdAt } : {}),
  });
  children.push(child);
  return child;
}

/** The whole log's journal, replayed here: per business-day close range, the hash and line count, and the totals. */
async function replay(closes: readonly BusinessDayClose[]): Promise<{ hashes: string[]; lines: number[]; totals: ReturnType<typeof totalsToStored>[] }> {
  const events: RecordedEvent[] = [];
  for (let batch = await fx.store.readAll({ limit: 1_000 }); batch.length > 0; batch = await fx.store.readAll({ after: batch.at(-1)!.position, limit: 1_000 })) events.push(...batch);
  const totals = emptyLedgerTotals();
  const result = { hashes: [] as string[], lines: [] as number[], totals: [] as ReturnType<typeof totalsToStored>[] };
  let index = 0;
  for (const close of closes) {
    const through = parsePosition(close.throughPosition);
    const hash = createHash('sha256');
    let lines = 0;
    for (; index < events.length && comparePositions(events[index]!.position, through) <= 0; index += 1) {
      const event = events[index]!;
      const entry = journalEntryOf(readDomainEvent(event), { streamId: event.streamId, recordedAt: event.created.toISOString() });
      if (!entry) continue;
      addEntryToTotals(totals, entry);
      for (const [lineNo, line] of entry.lines.entries()) {
        hash.update(`${journalLineText(formatPosition(event.position), lineNo, entry.businessDate, line)}\n`);
        lines += 1;
      }
    }
    result.hashes.push(hash.digest('hex'));
    result.lines.push(lines);
    result.totals.push(totalsToStored(totals));
  }
  return result;
}

beforeAll(async () => {
  fx = await createTransferFixture('cob_crash');
  // rm.standing_orders (the COB's list of orders) is kept by a projector in this process.
  projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
});

afterAll(async () => {
  await Promise.all(children.map((child) => child.kill()));
  await projector?.stop();
  await fx?.close();
});

describe('the close of business in a process killed with SIGKILL at random points', () => {
  const seed = Date.now() % 1_000_000;
  // A wide ceiling: a slow shared host stretches the run; a stuck process is caught by firstOutput's silence rule.
  it(`records each step and each close once per date, pays each occurrence once (seed ${seed})`, { timeout: 900_000 }, async () => {
    const next = seededRandom(seed);
    const payer = await fx.openCustomer({ checkingCents: 5_000_00, pin: '123456' });
    const payee = await fx.openCustomer();
    const schedules: Schedule[] = [
      { frequency: 'weekly', day: 1, firstDate: START },
      { frequency: 'weekly', day: 3, firstDate: START },
      { frequency: 'weekly', day: 5, firstDate: START },
      { frequency: 'monthly', day: 31, firstDate: START },
    ];
    const now = new Date(`${START}T06:00:00.000Z`);
    const orders: { orderId: string; schedule: Schedule }[] = [];
    for (const schedule of schedules) orders.push({ orderId: await createTestStandingOrder(fx, { payer, payee, amountCents: 10_00, schedule, now }), schedule });

    const kills: string[] = [];
    let done: Child | undefined;
    while (!done) {
      const killing = kills.length < KILLS;
      // Two of every three kills hold the process at a fault point of a COB (which point and which date, by the seed).
      const hold = killing && kills.length % 3 !== 2 ? `${DAILY_POINTS[Math.floor(next() * DAILY_POINTS.length)]!}:${1 + Math.floor(next() * 4)}` : undefined;
      const child = startCob(hold);
      const stops = ['ALL DONE', ...(hold ? [`HOLD ${hold.split(':')[0]!}`] : []), ...(killing && !hold ? ['CLOSED '] : [])];
      const reached = await firstOutput(child, stops, 30_000);
      if (reached === 'ALL DONE') {
        done = child;
        break;
      }
      // Between dates: after the process's first, second or third close (it may be in the next date's COB by then).
      if (reached === 'CLOSED ') await child.waitFor('CLOSED ', { times: 1 + Math.floor(next() * 3), timeoutMs: 30_000 }).catch(() => undefined);
      await child.kill();
      kills.push(hold ? `held at ${hold}` : 'between dates');
    }
    expect(await done.exited).toBe(0);
    expect(kills, `seed ${seed}`).toHaveLength(KILLS);

    // The business days: started once; then per date, its standing-order step, its ACH settlement step, its interest (accrued, booked, and on
    // a month's last day the month closed) and its close, once each, in order.
    const days = await fx.store.readStream(streams.businessDays());
    const dates: string[] = [];
    for (let date = START; date <= UNTIL; date = addDays(date, 1)) dates.push(date);
    expect(days.map((event) => [event.type, event.data.businessDate ?? event.data.firstDate]), `seed ${seed}, kills ${kills.join('; ')}`).toEqual([
      ['BusinessCalendarStarted', START],
      ...dates.flatMap((date) => [
        ['CobStepCompleted', date],
        ['CobStepCompleted', date],
        ['InterestAccrued', date],
        ['InterestBooked', date],
        ...(isLastDayOfMonth(date) ? [['InterestMonthClosed', date]] : []),
        ['CobStepCompleted', date],
        ['BusinessDayClosed', date],
      ]),
    ]);

    // Every occurrence due up to the last date closed paid once, on its own business date.
    const debits = (await fx.store.readStream(streams.account(payer.userId))).filter((event) => event.type === 'AccountDebited');
    let paid = 0;
    for (const { orderId, schedule } of orders) {
      const expected = occurrencesBetween(schedule, START, UNTIL);
      const recorded = (await fx.store.readStream(streams.standingOrder(orderId))).filter((event) => event.type.startsWith('Occurrence'));
      expect(recorded.map((event) => [event.type, event.data.date]), `seed ${seed}`).toEqual(expected.map((date) => ['OccurrencePaid', date]));
      for (const date of expected) {
        const debit = debits.filter((event) => event.data.transferId === occurrenceTransferId(orderId, date));
        expect(debit.map((event) => event.data.businessDate), `${orderId} ${date} seed ${seed}`).toEqual([date]);
      }
      paid += expected.length;
    }
    expect(debits).toHaveLength(paid);

    // Each close balances, and its hash, line count and totals are the replay's.
    const closes = days.filter((event) => event.type === 'BusinessDayClosed').map((event) => event.data as unknown as BusinessDayClose);
    const replayed = await replay(closes);
    expect(closes.every((close) => close.balanced && close.totalDebitsCents === close.totalCreditsCents)).toBe(true);
    expect(closes.map((close) => close.journalHash)).toEqual(replayed.hashes);
    expect(closes.map((close) => close.lineCount)).toEqual(replayed.lines);
    expect(closes.map((close) => close.accounts)).toEqual(replayed.totals);
    // A date's close covers the payments its own standing-order step made.
    for (const debit of debits) {
      const close = closes.findIndex((candidate) => candidate.businessDate === debit.data.businessDate);
      expect(comparePositions(debit.position, parsePosition(closes[close]!.throughPosition)), `seed ${seed}`).toBeLessThanOrEqual(0);
      if (close > 0) expect(comparePositions(debit.position, parsePosition(closes[close - 1]!.throughPosition)), `seed ${seed}`).toBeGreaterThan(0);
    }
    expect(closes.at(-1)!.accounts.find((row) => row.key === 'transfers-in-transit')).toEqual({ key: 'transfers-in-transit', debitsCents: '0', creditsCents: String(paid * 10_00) });
  });
});

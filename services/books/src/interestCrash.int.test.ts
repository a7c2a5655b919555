import { readDomainEvent } from '@bank/commands';
import {
  addDays,
  createInterestBook,
  interestRatesDecider,
  isLastDayOfMonth,
  monthEndPayment,
  streams,
  UNITS_PER_CENT,
  type AccountKind,
  type BusinessDayClose,
  type InterestRatesCommand,
} from '@bank/domain';
import type { RecordedEvent } from '@bank/eventstore';
import { seededRandom } from '@bank/platform';
import { startProjector, verifyReadModels, type ProjectorHandle } from '@bank/projector';
import { createTransferFixture, spawnTs, type Child, type TransferFixture, firstOutput } from '@bank/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CobFaultPoint } from './cobFaults';
import { interestTransactionId } from './interestStep';

/**
 * Interest through crashes: the COB as a real process (test/cobScript.ts, manual business dates) advancing from
 * 2028-02-20 to 2028-03-31 — two month ends (a leap February's 29th and March's 31st) and a rate change on the 15th
 * of March — killed with SIGKILL in the middle of each month's payments, at seeded random points of other dates
 * (the accrual recorded and not yet booked, the standing orders done, the close computed) and between dates, and
 * started again. Each date's interest is accrued, booked and (at month end) closed once, in order; every account owed
 * interest is paid once a month, the amount the domain's book (createInterestBook) computes from the log; the books
 * balance, interest-payable is empty after each month end, and audit:verify finds the read models equal to the replay.
 */
const START = '2028-02-20';
const UNTIL = '2028-03-31';
const RATE_CHANGE = '2028-03-15';

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
    COB_PROJECTOR_WAIT_MS: '30000',
    INTEREST_PAYMENT_CONCURRENCY: '2',
    ...(holdAt ? { HOLD_AT: holdAt } : {}),
  });
  children.push(child);
  return child;
}

async function readAll(): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (let page = await fx.store.readAll({ limit: 1_000 }); page.length > 0; page = await fx.store.readAll({ after: page.at(-1)!.position, limit: 1_000 })) all.push(...page);
  return all;
}

beforeAll(async () => {
  fx = await createTransferFixture('interest_crash');
  // The read models the interest step reads (rm.interest_*) are kept by a projector in this process.
  projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
});

afterAll(async () => {
  await Promise.all(children.map((child) => child.kill()));
  await projector?.stop();
  await fx?.close();
});

describe('interest through a COB killed with SIGKILL', () => {
  const seed = Date.now() % 1_000_000;
  // A wide ceiling: a slow shared host stretches the run; a stuck process is caught by firstOutput's silence rule.
  it(`accrues every date once and pays every month once per account, the book's amounts (seed ${seed})`, { timeout: 900_000 }, async () => {
    const next = seededRandom(seed);
    // Savings of different sizes (0.50, which rounds to nothing in either month; 73.00, exactly a cent a day at 5 %),
    // checking at 0 %.
    const customers = [];
    for (const savingsCents of [1_000_00, 25_000_00, 50, 73_00, 12_345_67, 0]) customers.push(await fx.openCustomer({ savingsCents, checkingCents: 500_00 }));
    const schedule: InterestRatesCommand = {
      type: 'ScheduleInterestRate',
      account: 'savings',
      annualRate: 41_250,
      effectiveFrom: RATE_CHANGE,
      businessDate: START,
      actorId: customers[0]!.userId,
      now: `${START}T09:00:00.000Z`,
    };
    await fx.commands.execute({
      decider: interestRatesDecider,
      streamId: streams.interestRates(),
      decide: (state) => interestRatesDecider.decide(schedule, state),
      context: { metadata: { actorRole: 'admin' } },
      commandType: schedule.type,
    });

    // The kills: in each month's payments (the second payment made), between them at random points or dates.
    const random = (): string => {
      const points: readonly CobFaultPoint[] = ['after-standing-orders', 'after-interest-accrued', 'before-close'];
      return `${points[Math.floor(next() * points.length)]!}:${1 + Math.floor(next() * 3)}`;
    };
    const plan: (string | 'between')[] = [random(), 'interest-payments:1', random(), 'between', 'interest-payments:1'];
    const kills: string[] = [];
    let done: Child | undefined;
    for (const step of [...plan, undefined]) {
      const hold = step === 'between' ? undefined : step;
      const child = startCob(hold);
      const stops = ['ALL DONE', ...(hold ? [`HOLD ${hold.split(':')[0]!}`] : []), ...(step === 'between' ? ['CLOSED '] : [])];
      const reached = await firstOutput(child, stops, 60_000);
      if (reached === 'ALL DONE') {
        done = child;
        break;
      }
      if (reached === 'CLOSED ') await child.waitFor('CLOSED ', { times: 1 + Math.floor(next() * 3), timeoutMs: 30_000 }).catch(() => undefined);
      await child.kill();
      kills.push(hold ? `held at ${hold}` : 'between dates');
    }
    expect(done, `seed ${seed}, kills ${kills.join('; ')}`).toBeDefined();
    expect(await done!.exited).toBe(0);
    // Both months' payments were cut short by a kill.
    expect(kills.filter((kill) => kill === 'held at interest-payments:1'), `seed ${seed}`).toHaveLength(2);

    // The business days: per date, the steps, the interest facts and the close, once each, in order.
    const days = await fx.store.readStream(streams.businessDays());
    const dates: string[] = [];
    for (let date = START; date <= UNTIL; date = addDays(date, 1)) dates.push(date);
    expect(
      days.map((event) => [event.type, event.data.businessDate ?? event.data.firstDate]),
      `seed ${seed}, kills ${kills.join('; ')}`,
    ).toEqual([
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
    expect(days.filter((event) => event.type === 'InterestAccrued').map((event) => (event.data.rates as { savings: number }).savings)).toEqual(
      dates.map((date) => (date < RATE_CHANGE ? 50_000 : 41_250)),
    );

    // The log replayed with the domain's book: before each month's close, every account's payment is the book's
    // month-end payment of its own accrual and carry, once.
    const book = createInterestBook();
    const paidByMonth = new Map<string, Map<string, number>>();
    for (const recorded of await readAll()) {
      const event = readDomainEvent(recorded);
      if (event.type === 'AccountCredited' && event.data.interest) {
        const key = `${recorded.streamId.slice('account-'.length)}:${event.data.account}`;
        const month = paidByMonth.get(event.data.interest.month) ?? new Map<string, number>();
        expect(month.has(key), `${key} paid twice for ${event.data.interest.month}`).toBe(false);
        month.set(key, event.data.amountCents);
        paidByMonth.set(event.data.interest.month, month);
        expect(event.data.description).toBe('Interest');
        expect(event.data.transactionId).toBe(interestTransactionId(key.split(':')[0]!, event.data.account, event.data.interest.month));
      }
      if (event.type === 'InterestMonthClosed') {
        const paid = paidByMonth.get(event.data.month) ?? new Map<string, number>();
        let owedAccounts = 0;
        for (const [key, account] of book.accounts()) {
          const { paidCents } = monthEndPayment(account.carryUnits, account.monthUnits);
          expect(BigInt(paid.get(key) ?? 0), `${key} ${event.data.month}`).toBe(paidCents);
          expect(account.paidCents, `${key} ${event.data.month}`).toBe(paidCents);
          if (paidCents > 0n) owedAccounts += 1;
        }
        expect([event.data.paidAccounts, event.data.paidCents]).toEqual([owedAccounts, String([...paid.values()].reduce((sum, cents) => sum + BigInt(cents), 0n))]);
      }
      book.apply(event, { streamId: recorded.streamId, recordedAt: recorded.created.toISOString() });
    }
    expect([...paidByMonth.keys()].sort()).toEqual(['2028-02', '2028-03']);
    // The four that accrue a cent or more a month are paid each month; 0.50 never is (its carry grows instead).
    for (const month of ['2028-02', '2028-03']) expect(paidByMonth.get(month)!.size, month).toBe(4);
    for (const account of book.accounts().values()) expect(2n * (account.carryUnits < 0n ? -account.carryUnits : account.carryUnits) <= UNITS_PER_CENT).toBe(true);
    // 1,000.00 for the 10 days of February from the 20th at 5 %: 100,000 × 50,000 × 10 = 50,000,000,000 units =
    // 136.986… cents → 1.37; 73.00: a cent a day, 0.10.
    expect(paidByMonth.get('2028-02')!.get(`${customers[0]!.userId}:savings`)).toBe(137);
    expect(paidByMonth.get('2028-02')!.get(`${customers[3]!.userId}:savings`)).toBe(10);

    // The books: every close balanced; after the last month end, interest-payable is back to zero and the expense
    // equals the interest paid.
    const closes = days.filter((event) => event.type === 'BusinessDayClosed').map((event) => event.data as unknown as BusinessDayClose);
    expect(closes.every((close) => close.balanced)).toBe(true);
    const total = [...paidByMonth.values()].flatMap((month) => [...month.values()]).reduce((sum, cents) => sum + cents, 0);
    const last = closes.at(-1)!.accounts;
    expect(last.find((row) => row.key === 'interest-payable')).toEqual({ key: 'interest-payable', debitsCents: String(total), creditsCents: String(total) });
    expect(last.find((row) => row.key === 'interest-expense')).toEqual({ key: 'interest-expense', debitsCents: String(total), creditsCents: '0' });
    const kinds: AccountKind[] = ['savings', 'checking'];
    for (const customer of customers) {
      for (const kind of kinds) expect(book.account(customer.userId, kind)?.bookedCents ?? 0n, `${customer.userId} ${kind}`).toBe(0n);
    }

    // audit:verify: the read models (interest included) equal the replay.
    const report = await verifyReadModels({ pool: fx.pool, store: fx.store });
    expect(report.mismatches).toEqual([]);
  });
});

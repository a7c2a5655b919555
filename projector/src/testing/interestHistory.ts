import { addDays, bankEvent, createInterestBook, isLastDayOfMonth, monthEndPayment, monthOf, streams, type AccountKind, type BankEvent, type DayAccrual } from '@bank/domain';
import { seededRandom } from '@bank/platform';
import { testId, type StreamEvent } from './recordedEvents';

/** Hanna: opens with 1,000.00 in savings on the first date and never moves it (the hand-computed example). */
export const HANNA = testId(9_001);
export const INTEREST_ADMIN = testId(9_999);
const ADMIN = INTEREST_ADMIN;

export interface InterestHistory {
  readonly events: StreamEvent[];
  readonly customers: readonly string[];
  /** The payments made, as the COB makes them (from the domain's book at each month's last day). */
  readonly payments: { readonly userId: string; readonly account: AccountKind; readonly month: string; readonly amountCents: number }[];
}

export interface InterestHistoryOptions {
  readonly seed: number;
  readonly first: string;
  readonly last: string;
  readonly customers: number;
}

/**
 * A random bank's log over business dates `first`..`last`, with the COB's interest events as the COB writes them:
 * each date, money events tagged with it; InterestAccrued (savings 5.00 %, then 4.125 % for the last twelve days,
 * checking 0 % then 1.5 %); money events tagged with the same date that land after the accrual began (they count from the
 * next day); now and then one tagged with the next date that lands before the accrual (moved during the COB); InterestBooked with the day's totals; on a month's last day every account's payment (AccountCredited
 * with `interest`, what the domain's month-end rule pays) and InterestMonthClosed. One customer closes their
 * account (after emptying it) and is still paid; one opens in the middle of a month; balances fall to zero at times
 * (and accrue nothing then).
 */
export function interestHistory(options: InterestHistoryOptions): InterestHistory {
  const next = seededRandom(options.seed);
  const book = createInterestBook();
  const events: StreamEvent[] = [];
  const payments: InterestHistory['payments'][number][] = [];
  const balances = new Map<string, Record<AccountKind, number>>();
  let txn = 0;
  let minute = 0;
  const recordedAt = () => new Date(Date.parse(`${options.first}T00:00:00.000Z`) + (minute += 1) * 60_000).toISOString();
  const accruals = new Map<string, DayAccrual>();
  const push = (item: StreamEvent) => {
    events.push(item);
    const event = item.event as BankEvent;
    if (event.type === 'InterestAccrued') accruals.set(event.data.businessDate, book.accrue(event.data.businessDate, event.data.rates));
    else book.apply(event, { streamId: item.stream, recordedAt: recordedAt() });
  };
  const open = (userId: string, at: string) => {
    balances.set(userId, { savings: 0, checking: 0 });
    push({ stream: streams.account(userId), event: bankEvent('AccountOpened', { userId, accountNumber: String(1_000_000_000 + balances.size), openedAt: at }) });
  };
  const move = (userId: string, account: AccountKind, delta: number, businessDate: string, interest?: { month: string; accruedUnits: string; carryUnits: string }) => {
    const balance = balances.get(userId)!;
    balance[account] += delta;
    txn += 1;
    const common = {
      transactionId: testId(100_000 + txn),
      account,
      amountCents: Math.abs(delta),
      occurredAt: `${businessDate}T12:00:00.000Z`,
      balanceAfterCents: balance[account],
      businessDate,
    };
    const event = interest
      ? bankEvent('AccountCredited', { ...common, description: 'Interest', direction: 'credit', status: 'completed', interest })
      : next() < 0.7
        ? delta > 0
          ? bankEvent('AccountCredited', { ...common, description: 'Deposit', direction: 'credit', status: 'completed' })
          : bankEvent('AccountDebited', { ...common, description: 'Payment', direction: 'debit', status: 'completed' })
        : bankEvent('StaffTransactionPosted', {
            ...common,
            description: 'Staff posting',
            direction: delta > 0 ? 'credit' : 'debit',
            status: 'completed',
            adminId: ADMIN,
            postedAt: `${businessDate}T12:00:00.000Z`,
          });
    push({ stream: streams.account(userId), event });
  };

  const customers = [HANNA, ...Array.from({ length: options.customers - 1 }, (_, i) => testId(9_100 + i))];
  const late = customers.at(-1)!;
  const closing = customers[1]!;
  push({ stream: 'businessDays', event: bankEvent('BusinessCalendarStarted', { firstDate: options.first, mode: 'manual', startedAt: `${options.first}T00:00:00.000Z` }) });
  // The rate change the accruals follow, scheduled by an admin on the first date (an audited staff event).
  push({
    stream: 'interestRates',
    event: bankEvent('InterestRateScheduled', { account: 'savings', annualRate: 41_250, effectiveFrom: addDays(options.last, -11), actorId: ADMIN, scheduledAt: `${options.first}T09:00:00.000Z` }),
    metadata: { actorId: ADMIN, actorRole: 'admin' },
  });
  for (const userId of customers) if (userId !== late) open(userId, `${options.first}T00:00:00.000Z`);
  move(HANNA, 'savings', 1_000_00, options.first);

  const days: string[] = [];
  for (let date = options.first; date <= options.last; date = addDays(date, 1)) days.push(date);
  const middle = days[Math.floor(days.length / 2)]!;
  // The rates change twelve days before the end (Hanna's two full months keep 5.00 %).
  const rateChange = days[Math.max(0, days.length - 12)]!;
  let closed = false;
  for (const date of days) {
    if (date === addDays(options.first, 10)) open(late, `${date}T00:00:00.000Z`);
    const active = customers.filter((userId) => userId !== HANNA && balances.has(userId) && !(closed && userId === closing));
    const randomMoves = (count: number, businessDate = date) => {
      for (let i = 0; i < count; i += 1) {
        const userId = active[Math.floor(next() * active.length)]!;
        const account: AccountKind = next() < 0.7 ? 'savings' : 'checking';
        const wanted = Math.round((next() - 0.35) * 500_000) || 1;
        // Balances never go below zero: a debit takes at most what is there (a zero balance then gets a deposit).
        const balance = balances.get(userId)![account];
        const delta = wanted < 0 && balance === 0 ? -wanted : Math.max(wanted, -balance);
        move(userId, account, delta, businessDate);
      }
    };
    randomMoves(Math.floor(next() * 6));
    if (date === middle && !closed) {
      for (const account of ['savings', 'checking'] as const) {
        const balance = balances.get(closing)![account];
        if (balance !== 0) move(closing, account, -balance, date);
      }
      push({ stream: streams.account(closing), event: bankEvent('AccountClosed', { adminId: ADMIN, closedAt: `${date}T13:00:00.000Z` }) });
      closed = true;
    }
    // Money moved while the COB of the date runs, past midnight: tagged with tomorrow, logged before today's accrual.
    randomMoves(next() < 0.4 ? 1 : 0, addDays(date, 1));
    const rates = { savings: date < rateChange ? 50_000 : 41_250, checking: date < rateChange ? 0 : 15_000 };
    push({ stream: 'businessDays', event: bankEvent('InterestAccrued', { businessDate: date, rates, accruedAt: `${addDays(date, 1)}T00:00:01.000Z` }) });
    // Between InterestAccrued and its day's close, money events still tagged with the date: they count from tomorrow.
    randomMoves(Math.floor(next() * 3));
    const day = accruals.get(date)!;
    push({
      stream: 'businessDays',
      event: bankEvent('InterestBooked', { businessDate: date, accounts: day.accounts, accruedUnits: String(day.accruedUnits), bookedCents: Number(day.bookedCents), bookedAt: `${addDays(date, 1)}T00:00:02.000Z` }),
    });
    if (!isLastDayOfMonth(date)) continue;
    const month = monthOf(date);
    let paidAccounts = 0;
    let paidCents = 0n;
    for (const [key, account] of book.accounts()) {
      const { paidCents: pay, carryUnits } = monthEndPayment(account.carryUnits, account.monthUnits);
      if (pay <= 0n) continue;
      const [userId = '', kind = 'savings'] = key.split(':') as [string, AccountKind];
      move(userId, kind, Number(pay), date, { month, accruedUnits: String(account.carryUnits + account.monthUnits), carryUnits: String(carryUnits) });
      payments.push({ userId, account: kind, month, amountCents: Number(pay) });
      paidAccounts += 1;
      paidCents += pay;
    }
    push({
      stream: 'businessDays',
      event: bankEvent('InterestMonthClosed', { month, businessDate: date, paidAccounts, paidCents: String(paidCents), closedAt: `${addDays(date, 1)}T00:00:03.000Z` }),
    });
  }
  return { events, customers, payments };
}


import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideAccount, evolveAccount, type AccountEvent } from '../account/accountDecider';
import { initialAccountState, type AccountState } from '../account/accountState';
import { addDays } from '../standingOrder/schedule';
import { bankEvent, type BankEvent } from '../events/eventSchemas';
import { addEntryToTotals, emptyLedgerTotals, trialBalanceOf } from '../ledger/ledgerTotals';
import { isBalancedEntry, journalEntryOf } from '../ledger/postingRules';
import type { AccountKind } from '../primitives';
import { createInterestBook } from './interestBook';
import { isLastDayOfMonth, monthOf, UNITS_PER_CENT } from './interestMath';

/**
 * Over random balances, rates, rate changes, month lengths and leap years, a log is built the way the COB builds it
 * (money events, InterestAccrued, InterestBooked, payments, InterestMonthClosed) and checked against an independent
 * computation: each day accrues the balance standing when its accrual begins × the rate of that day; the sum of the
 * payments plus the carry equals the exact sum of the daily accruals; each payment is the month's accrual plus the
 * carry rounded half to even; the carry never exceeds half a cent; the ledger balances with interest-payable equal to
 * what is accrued and not yet paid.
 */

const NOW = '2026-01-01T00:00:00.000Z';
const ADMIN = '00000000-0000-4000-8000-00000000ad01';
const HALF_CENT = UNITS_PER_CENT / 2n;

const userIdOf = (index: number): string => `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`;

interface DayPlan {
  /** Per customer: balances set during the day (before its accrual), and late ones (recorded after it). */
  readonly moves: readonly { readonly customer: number; readonly savings: number; readonly checking: number; readonly late: boolean }[];
  readonly rateChange?: { readonly account: AccountKind; readonly annualRate: number } | undefined;
}

// 5,000 cents at 3.65 % accrue exactly half a cent a day: ties for the half-to-even rounding.
const balance = fc.oneof(fc.constant(0), fc.constant(5_000), fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 2_000_000_000 }));
const dayPlan = (customers: number): fc.Arbitrary<DayPlan> =>
  fc.record({
    moves: fc.array(fc.record({ customer: fc.integer({ min: 0, max: customers - 1 }), savings: balance, checking: balance, late: fc.boolean() }), { maxLength: 3 }),
    rateChange: fc.option(fc.record({ account: fc.constantFrom<AccountKind>('savings', 'checking'), annualRate: fc.oneof(fc.constant(36_500), fc.integer({ min: 0, max: 250_000 })) }), { nil: undefined, freq: 4 }),
  });

const scenario = fc.integer({ min: 1, max: 4 }).chain((customers) =>
  fc.record({
    customers: fc.constant(customers),
    // 2027-12 … 2028-03 crosses a leap February; the start day varies the month lengths met.
    start: fc.constantFrom('2027-12-20', '2028-01-25', '2028-02-10', '2026-02-15', '2026-11-29', '2030-04-28'),
    days: fc.array(dayPlan(customers), { minLength: 20, maxLength: 75 }),
  }),
);

describe('interest over random histories', () => {
  it('pays exactly the daily accruals, rounded half to even once a month, with the ledger balanced', () => {
    fc.assert(
      fc.property(scenario, ({ customers, start, days }) => {
        const log: { event: BankEvent; streamId: string }[] = [];
        const states = new Map<string, AccountState>();
        const append = (streamId: string, event: BankEvent): void => {
          log.push({ event, streamId });
        };
        const account = (userId: string): AccountState => states.get(userId) ?? initialAccountState;
        const run = (userId: string, command: Parameters<typeof decideAccount>[0]): AccountEvent[] => {
          const events = decideAccount(command, account(userId));
          let state = account(userId);
          for (const event of events) {
            state = evolveAccount(state, event);
            append(`account-${userId}`, event);
          }
          states.set(userId, state);
          return events;
        };
        for (let customer = 0; customer < customers; customer += 1) {
          run(userIdOf(customer), { type: 'OpenAccount', userId: userIdOf(customer), accountNumber: String(1_000_000_000 + customer), now: NOW });
        }

        // The independent model: running balances, the rate schedule, and exact sums per account.
        const rates: Record<AccountKind, Map<string, number>> = { savings: new Map(), checking: new Map() };
        const rateOnDay = (kind: AccountKind, date: string): number => {
          let rate = kind === 'savings' ? 50_000 : 0;
          for (const [from, value] of [...rates[kind]].sort(([a], [b]) => (a < b ? -1 : 1))) if (from <= date) rate = value;
          return rate;
        };
        const exact = new Map<string, bigint>();
        const owedThisMonth = new Map<string, bigint>();
        const carried = new Map<string, bigint>();
        const paidTotal = new Map<string, bigint>();
        let transaction = 0;
        const nextId = (): string => `00000000-0000-4000-9000-${String((transaction += 1)).padStart(12, '0')}`;

        const setBalances = (customer: number, savings: number, checking: number, businessDate: string): void => {
          run(userIdOf(customer), {
            type: 'AdjustBalances',
            adminId: ADMIN,
            savingsCents: savings,
            checkingCents: checking,
            transactionIds: { savings: nextId(), checking: nextId() },
            businessDate,
            now: NOW,
          });
        };

        const book = createInterestBook();
        const totals = emptyLedgerTotals();
        let lastAccrual: ReturnType<typeof book.accrue> | undefined;
        const feed = ({ event, streamId }: { event: BankEvent; streamId: string }): void => {
          if (event.type === 'InterestAccrued') lastAccrual = book.accrue(event.data.businessDate, event.data.rates);
          else book.apply(event, { streamId, recordedAt: NOW });
          const entry = journalEntryOf(event, { streamId, recordedAt: NOW });
          if (entry) {
            expect(isBalancedEntry(entry)).toBe(true);
            addEntryToTotals(totals, entry);
          }
        };
        let date: string = start;
        for (const plan of days) {
          if (plan.rateChange) rates[plan.rateChange.account].set(addDays(date, 1), plan.rateChange.annualRate);
          for (const move of plan.moves) if (!move.late) setBalances(move.customer, move.savings, move.checking, date);
          const dayRates = { savings: rateOnDay('savings', date), checking: rateOnDay('checking', date) };
          append('businessDays', bankEvent('InterestAccrued', { businessDate: date, rates: dayRates, accruedAt: NOW }));
          // Independent: the balance standing now is the end of day's.
          let dayUnits = 0n;
          for (let customer = 0; customer < customers; customer += 1) {
            const state = account(userIdOf(customer));
            if (state.status === 'unopened') continue;
            for (const kind of ['savings', 'checking'] as const) {
              const key = `${userIdOf(customer)}:${kind}`;
              const units = state.balances[kind] > 0 ? BigInt(state.balances[kind]) * BigInt(dayRates[kind]) : 0n;
              dayUnits += units;
              exact.set(key, (exact.get(key) ?? 0n) + units);
              owedThisMonth.set(key, (owedThisMonth.get(key) ?? 0n) + units);
            }
          }
          // The book's computation, fed the log as the projector is.
          for (const entry of log.splice(0)) feed(entry);
          const accrual = lastAccrual;
          expect(accrual).toBeDefined();
          expect(accrual?.accruedUnits).toBe(dayUnits);
          append('businessDays', bankEvent('InterestBooked', { businessDate: date, accounts: accrual!.accounts, accruedUnits: String(accrual!.accruedUnits), bookedCents: Number(accrual!.bookedCents), bookedAt: NOW }));
          for (const move of plan.moves) if (move.late) setBalances(move.customer, move.savings, move.checking, date);
          if (isLastDayOfMonth(date)) {
            let paidAccounts = 0;
            let paidCents = 0n;
            for (let customer = 0; customer < customers; customer += 1) {
              for (const kind of ['savings', 'checking'] as const) {
                const key = `${userIdOf(customer)}:${kind}`;
                const owed = (carried.get(key) ?? 0n) + (owedThisMonth.get(key) ?? 0n);
                // Independent rounding: compare twice the remainder with a cent.
                const floor = owed >= 0n ? owed / UNITS_PER_CENT : -((-owed + UNITS_PER_CENT - 1n) / UNITS_PER_CENT);
                const remainder = owed - floor * UNITS_PER_CENT;
                const pay = remainder * 2n > UNITS_PER_CENT || (remainder * 2n === UNITS_PER_CENT && floor % 2n !== 0n) ? floor + 1n : floor;
                const carry = owed - pay * UNITS_PER_CENT;
                expect(carry <= HALF_CENT && carry >= -HALF_CENT).toBe(true);
                expect(book.account(userIdOf(customer), kind)?.bookedCents ?? 0n).toBe(pay);
                if (pay > 0n) {
                  paidAccounts += 1;
                  paidCents += pay;
                  run(userIdOf(customer), {
                    type: 'PayInterest',
                    transactionId: nextId(),
                    account: kind,
                    amountCents: Number(pay),
                    month: monthOf(date),
                    accruedUnits: String(owed),
                    carryUnits: String(carry),
                    businessDate: date,
                    now: NOW,
                  });
                  paidTotal.set(key, (paidTotal.get(key) ?? 0n) + pay);
                }
                carried.set(key, carry);
                owedThisMonth.set(key, 0n);
              }
            }
            append('businessDays', bankEvent('InterestMonthClosed', { month: monthOf(date), businessDate: date, paidAccounts, paidCents: String(paidCents), closedAt: NOW }));
          }
          for (const entry of log.splice(0)) feed(entry);
          date = addDays(date, 1);
        }

        // Payments plus what is carried and what is accrued this month equal the exact sum of the daily accruals.
        for (let customer = 0; customer < customers; customer += 1) {
          for (const kind of ['savings', 'checking'] as const) {
            const key = `${userIdOf(customer)}:${kind}`;
            const state = book.account(userIdOf(customer), kind)!;
            expect((paidTotal.get(key) ?? 0n) * UNITS_PER_CENT + state.carryUnits + state.monthUnits).toBe(exact.get(key) ?? 0n);
            expect(state.carryUnits).toBe(carried.get(key) ?? 0n);
          }
        }
        const trial = trialBalanceOf(totals);
        expect(trial.balanced).toBe(true);
        const payable = trial.rows.find((row) => row.key === 'interest-payable')!;
        let openBooked = 0n;
        for (const state of book.accounts().values()) openBooked += state.bookedCents;
        expect(payable.balanceCents).toBe(openBooked);
      }),
      { numRuns: 60 },
    );

  });
});

import { utcDateOf } from '../calendar';
import type { BankEvent } from '../events/eventSchemas';
import type { AccountKind } from '../primitives';
import { accountKinds } from '../primitives';
import { parseStreamName } from '../streams';
import { bookedCentsOf, dailyAccrualUnits, interestEffectiveDate, UNITS_PER_CENT } from './interestMath';

/**
 * The interest of every account, replayed from the log in order (docs/interest.md): the auditors' and audit:verify's
 * computation, and the reference the projector's SQL must equal. Pure and in memory.
 *
 * An account's end-of-day balance for D is the balance after its last money event whose effective date
 * (interestEffectiveDate) is on or before D, among the events before InterestAccrued(D).
 */

export interface AccountInterest {
  /** The end-of-day balance at the last accrual (0 before the first). */
  readonly balanceCents: number;
  /** The open month's exact accrual so far, in units. */
  readonly monthUnits: bigint;
  /** Carried from the month before, in units. */
  readonly carryUnits: bigint;
  /** roundHalfEven(carry + month): what interest-payable holds for the account. */
  readonly bookedCents: bigint;
  /** Paid in the open month (its payment, once made). */
  readonly paidCents: bigint;
}

export interface DayAccrual {
  /** Accounts whose accrual that day was positive. */
  readonly accounts: number;
  readonly accruedUnits: bigint;
  /** The increase of the accounts' bookedCents. */
  readonly bookedCents: bigint;
}

export interface MonthClose {
  readonly paidAccounts: number;
  readonly paidCents: bigint;
}

export interface MoneyMovement {
  readonly userId: string;
  readonly account: AccountKind;
  readonly balanceAfterCents: number;
  readonly businessDate: string;
}

export interface InterestBook {
  /** The last date accrued (null before the first accrual). */
  readonly lastAccrued: () => string | null;
  opened(userId: string): void;
  money(movement: MoneyMovement): void;
  accrue(businessDate: string, rates: Readonly<Record<AccountKind, number>>): DayAccrual;
  paid(userId: string, account: AccountKind, amountCents: number): void;
  closeMonth(): MonthClose;
  account(userId: string, account: AccountKind): AccountInterest | undefined;
  /** Every account, keyed `${userId}:${account}`. */
  accounts(): ReadonlyMap<string, AccountInterest>;
  /** Feeds one event of the log (in log order); events that concern no interest are ignored. */
  apply(event: BankEvent, source: { readonly streamId: string; readonly recordedAt: string }): void;
}

interface MutableAccount {
  /** Its kind, kept so that the daily accrual does not take it out of the key (every account, every day). */
  readonly kind: AccountKind;
  balanceCents: number;
  /** Balances by effective date after the last accrual. */
  dated: Map<string, number>;
  monthUnits: bigint;
  carryUnits: bigint;
  bookedCents: bigint;
  paidCents: bigint;
}

function newAccount(kind: AccountKind): MutableAccount {
  return { kind, balanceCents: 0, dated: new Map(), monthUnits: 0n, carryUnits: 0n, bookedCents: 0n, paidCents: 0n };
}

export function createInterestBook(): InterestBook {
  const accounts = new Map<string, MutableAccount>();
  let lastAccrued: string | null = null;

  const keyOf = (userId: string, account: AccountKind): string => `${userId}:${account}`;
  function accountFor(userId: string, account: AccountKind): MutableAccount {
    const key = keyOf(userId, account);
    let found = accounts.get(key);
    if (!found) {
      found = newAccount(account);
      accounts.set(key, found);
    }
    return found;
  }

  function endOfDay(entry: MutableAccount, date: string): number {
    // Most accounts have no money event since the last accrual: nothing to walk (nor an array to make) for them.
    if (entry.dated.size === 0) return entry.balanceCents;
    let latestDate: string | undefined;
    for (const dated of entry.dated.keys()) if (dated <= date && (latestDate === undefined || dated > latestDate)) latestDate = dated;
    const balance = latestDate === undefined ? entry.balanceCents : entry.dated.get(latestDate)!;
    for (const dated of [...entry.dated.keys()]) if (dated <= date) entry.dated.delete(dated);
    return balance;
  }

  const book: InterestBook = {
    lastAccrued: () => lastAccrued,
    opened(userId) {
      for (const account of accountKinds) accountFor(userId, account);
    },
    money({ userId, account, balanceAfterCents, businessDate }) {
      accountFor(userId, account).dated.set(interestEffectiveDate(businessDate, lastAccrued), balanceAfterCents);
    },
    accrue(businessDate, rates) {
      let count = 0;
      let units = 0n;
      let booked = 0n;
      for (const entry of accounts.values()) {
        entry.balanceCents = endOfDay(entry, businessDate);
        const day = dailyAccrualUnits(entry.balanceCents, rates[entry.kind]);
        if (day === 0n) continue;
        count += 1;
        units += day;
        entry.monthUnits += day;
        const next = bookedCentsOf(entry.carryUnits, entry.monthUnits);
        booked += next - entry.bookedCents;
        entry.bookedCents = next;
      }
      lastAccrued = businessDate;
      return { accounts: count, accruedUnits: units, bookedCents: booked };
    },
    paid(userId, account, amountCents) {
      accountFor(userId, account).paidCents += BigInt(amountCents);
    },
    closeMonth() {
      let paidAccounts = 0;
      let paidCents = 0n;
      for (const entry of accounts.values()) {
        if (entry.paidCents > 0n) {
          paidAccounts += 1;
          paidCents += entry.paidCents;
        }
        entry.carryUnits = entry.carryUnits + entry.monthUnits - entry.paidCents * UNITS_PER_CENT;
        entry.monthUnits = 0n;
        entry.bookedCents = 0n;
        entry.paidCents = 0n;
      }
      return { paidAccounts, paidCents };
    },
    account(userId, account) {
      const entry = accounts.get(keyOf(userId, account));
      return entry ? snapshotOf(entry) : undefined;
    },
    accounts() {
      return new Map([...accounts].map(([key, entry]) => [key, snapshotOf(entry)]));
    },
    apply(event, source) {
      switch (event.type) {
        case 'AccountOpened':
          book.opened(event.data.userId);
          return;
        case 'AccountCredited':
        case 'AccountDebited':
        case 'BalanceAdjusted':
        case 'StaffTransactionPosted':
        case 'TransactionReversed': {
          const parsed = parseStreamName(source.streamId);
          if (parsed?.category !== 'account') return;
          const { data } = event;
          if (event.type === 'AccountCredited' && event.data.interest !== undefined) book.paid(parsed.id, data.account, data.amountCents);
          book.money({ userId: parsed.id, account: data.account, balanceAfterCents: data.balanceAfterCents, businessDate: data.businessDate ?? utcDateOf(source.recordedAt) });
          return;
        }
        case 'InterestAccrued':
          book.accrue(event.data.businessDate, event.data.rates);
          return;
        case 'InterestMonthClosed':
          book.closeMonth();
          return;
        default:
          return;
      }
    },
  };
  return book;
}

function snapshotOf(entry: MutableAccount): AccountInterest {
  return { balanceCents: entry.balanceCents, monthUnits: entry.monthUnits, carryUnits: entry.carryUnits, bookedCents: entry.bookedCents, paidCents: entry.paidCents };
}

/**
 * The interest of one generated customer, day by day, as the bank's replay computes it (createInterestBook, the
 * same rule as the read models and audit:verify): the customer's money events go in before the accrual of their
 * slot's day (seedCalendar.ts), every history day accrues, and each month's last day pays what the account is owed
 * (the COB's own PayInterest command: interestPayment of @bank/books). The day's and month's totals over every
 * customer are what the COB's InterestBooked and InterestMonthClosed record (seedDays.ts). Pure: no I/O.
 */
import { interestPayment, type InterestPaymentRequest } from '@bank/books';
import type { NewEvent } from '@bank/eventstore';
import { accountKinds, createInterestBook, monthOf, UNITS_PER_CENT, type BankEvent } from '@bank/domain';
import type { SeedCalendar } from './seedCalendar';

/** The bank's totals over every customer: per history day its accrual, per month-end day its payments. */
export interface InterestTotals {
  readonly accounts: number[];
  readonly accruedUnits: bigint[];
  readonly bookedCents: bigint[];
  readonly paidAccounts: number[];
  readonly paidCents: bigint[];
}

export function emptyInterestTotals(days: number): InterestTotals {
  return {
    accounts: new Array<number>(days).fill(0),
    accruedUnits: new Array<bigint>(days).fill(0n),
    bookedCents: new Array<bigint>(days).fill(0n),
    paidAccounts: new Array<number>(days).fill(0),
    paidCents: new Array<bigint>(days).fill(0n),
  };
}

/** Adds `from` into `into` (the totals of worker threads). */
export function addInterestTotals(into: InterestTotals, from: InterestTotals): void {
  for (let d = 0; d < into.accounts.length; d += 1) {
    into.accounts[d]! += from.accounts[d]!;
    into.accruedUnits[d]! += from.accruedUnits[d]!;
    into.bookedCents[d]! += from.bookedCents[d]!;
    into.paidAccounts[d]! += from.paidAccounts[d]!;
    into.paidCents[d]! += from.paidCents[d]!;
  }
}

export class CustomerInterest {
  private readonly book = createInterestBook();
  /** The next history day to accrue. */
  private next = 0;

  constructor(
    private readonly userId: string,
    private readonly streamId: string,
    private readonly totals: InterestTotals,
    private readonly calendar: SeedCalendar,
  ) {}

  /** Feeds the account's new events (in stream order), as the replay reads them. */
  apply(events: readonly NewEvent[]): void {
    for (const event of events) {
      const data = event.data as { occurredAt?: string };
      this.book.apply({ type: event.type, data: event.data } as BankEvent, { streamId: this.streamId, recordedAt: data.occurredAt ?? new Date(0).toISOString() });
    }
  }

  /**
   * Accrues every day before `day` not accrued yet; on a month's last day, `pay` makes each payment owed (checking
   * before savings, the COB's order) and the month closes.
   */
  accrueUntil(day: number, pay: (day: number, payment: InterestPaymentRequest) => void): void {
    for (; this.next < Math.min(day, this.calendar.days); this.next += 1) {
      const d = this.next;
      const date = this.calendar.date(d);
      const accrued = this.book.accrue(date, this.calendar.rates(d));
      // A day with no positive accrual adds nothing (and each bigint sum is a new number on the heap: most days of
      // most generated customers accrue nothing).
      if (accrued.accounts > 0) {
        this.totals.accounts[d]! += accrued.accounts;
        this.totals.accruedUnits[d]! += accrued.accruedUnits;
        this.totals.bookedCents[d]! += accrued.bookedCents;
      }
      if (!this.calendar.isMonthEnd(d)) continue;
      for (const account of accountKinds.toSorted()) {
        const owed = this.book.account(this.userId, account);
        if (!owed || owed.bookedCents <= owed.paidCents) continue;
        const units = owed.carryUnits + owed.monthUnits;
        const amountCents = owed.bookedCents - owed.paidCents;
        pay(d, interestPayment({ userId: this.userId, account, amountCents: Number(amountCents), accruedUnits: String(units), carryUnits: String(units - owed.bookedCents * UNITS_PER_CENT) }, monthOf(date), date, this.calendar.cobInstant(d)));
      }
      const closed = this.book.closeMonth();
      this.totals.paidAccounts[d]! += closed.paidAccounts;
      this.totals.paidCents[d]! += closed.paidCents;
    }
  }
}

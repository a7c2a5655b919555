import type { AccountKind } from '../primitives';

/**
 * Interest arithmetic, exact and integer (docs/interest.md). A rate is an integer `annualRate` in ten-thousandths of
 * a percent (5.00 % = 50_000). The exact daily accrual of a balance, in cents, is balance × annualRate / 365_000_000
 * (÷ 100 for percent, ÷ 10_000 for the rate's scale, ÷ 365 days, also in leap years). So the integer
 * balance × annualRate is that accrual in units of 1/365,000,000 cent: sums of units are exact, and only a payment
 * rounds (half to even) to the cent.
 */

/** Units in one cent: a day's accrual of balanceCents at annualRate is balanceCents × annualRate units. */
export const UNITS_PER_CENT = 365_000_000n;

/** The rate's scale: annualRate / RATE_SCALE is the percent. */
export const RATE_SCALE = 10_000;

/** 25 % a year, the highest rate a bank may set here. */
export const MAX_ANNUAL_RATE = 25 * RATE_SCALE;

/** The rates from the bank's first business date: savings 5.00 %, checking 0 %. */
export const DEFAULT_ANNUAL_RATES: Readonly<Record<AccountKind, number>> = Object.freeze({ savings: 5 * RATE_SCALE, checking: 0 });

/** The exact accrual of one day, in units: only a positive end-of-day balance accrues. */
export function dailyAccrualUnits(balanceCents: number, annualRate: number): bigint {
  if (balanceCents <= 0 || annualRate <= 0) return 0n;
  return BigInt(balanceCents) * BigInt(annualRate);
}

/** `numerator / denominator` rounded half to even (denominator > 0; numerator of any sign). */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('divideHalfEven needs a positive denominator');
  // Floor division, then the remainder decides.
  let quotient = numerator / denominator;
  let remainder = numerator % denominator;
  if (remainder < 0n) {
    quotient -= 1n;
    remainder += denominator;
  }
  const twice = remainder * 2n;
  if (twice > denominator) return quotient + 1n;
  if (twice < denominator) return quotient;
  return quotient % 2n === 0n ? quotient : quotient + 1n;
}

/** Units rounded half to even to whole cents. */
export function roundHalfEvenToCents(units: bigint): bigint {
  return divideHalfEven(units, UNITS_PER_CENT);
}

/**
 * What the ledger holds for an account in interest-payable during a month: the month-to-date exact accrual plus the
 * carry from the month before, rounded half to even. Each day's booking is the increase of this figure, so the month's
 * bookings add up to exactly the month's payment.
 */
export function bookedCentsOf(carryUnits: bigint, monthUnits: bigint): bigint {
  return roundHalfEvenToCents(carryUnits + monthUnits);
}

/**
 * The payment at the close of a month's last day, and the carry into the next month: the month's exact accrual plus
 * the carry, rounded half to even; the rest (|carry| ≤ half a cent, possibly negative) is carried. A month that
 * rounds to 0 pays nothing and carries all.
 */
export function monthEndPayment(carryUnits: bigint, monthUnits: bigint): { readonly paidCents: bigint; readonly carryUnits: bigint } {
  const owed = carryUnits + monthUnits;
  const paidCents = roundHalfEvenToCents(owed);
  return { paidCents, carryUnits: owed - paidCents * UNITS_PER_CENT };
}

/** 'YYYY-MM' of a 'YYYY-MM-DD' date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** True when `date` (YYYY-MM-DD) is the last day of its month (UTC calendar). */
export function isLastDayOfMonth(date: string): boolean {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month, 0)).getUTCDate() === day;
}

/** The day after `date` (YYYY-MM-DD, UTC). */
function dayAfter(date: string): string {
  const at = new Date(`${date}T00:00:00.000Z`);
  at.setUTCDate(at.getUTCDate() + 1);
  return at.toISOString().slice(0, 10);
}

/**
 * The date a money event counts for in the interest accrual: its business date, but never one whose accrual has
 * begun (an event recorded after InterestAccrued(D) counts from D + 1). With it, the end-of-day balances of D are a
 * function of the log's order alone: the accrual replays exactly.
 */
export function interestEffectiveDate(businessDate: string, lastAccruedDate: string | null): string {
  if (lastAccruedDate === null || businessDate > lastAccruedDate) return businessDate;
  return dayAfter(lastAccruedDate);
}

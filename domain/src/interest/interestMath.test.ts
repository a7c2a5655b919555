import { describe, expect, it } from 'vitest';
import { bookedCentsOf, dailyAccrualUnits, divideHalfEven, interestEffectiveDate, isLastDayOfMonth, monthEndPayment, roundHalfEvenToCents, UNITS_PER_CENT } from './interestMath';

describe('interest arithmetic', () => {
  it('accrues balance × rate units a day, and nothing on a zero or negative balance', () => {
    // $1,000.00 at 5.00 %: 100000 × 50000 units = 13.6986… cents a day.
    expect(dailyAccrualUnits(100_000, 50_000)).toBe(5_000_000_000n);
    expect(Number(dailyAccrualUnits(100_000, 50_000)) / Number(UNITS_PER_CENT)).toBeCloseTo(13.69863, 5);
    expect(dailyAccrualUnits(0, 50_000)).toBe(0n);
    expect(dailyAccrualUnits(-5, 50_000)).toBe(0n);
    expect(dailyAccrualUnits(100_000, 0)).toBe(0n);
  });

  it('rounds half to even, for either sign', () => {
    expect(divideHalfEven(5n, 10n)).toBe(0n);
    expect(divideHalfEven(15n, 10n)).toBe(2n);
    expect(divideHalfEven(25n, 10n)).toBe(2n);
    expect(divideHalfEven(26n, 10n)).toBe(3n);
    expect(divideHalfEven(-5n, 10n)).toBe(0n);
    expect(divideHalfEven(-15n, 10n)).toBe(-2n);
    expect(divideHalfEven(-16n, 10n)).toBe(-2n);
    expect(divideHalfEven(-14n, 10n)).toBe(-1n);
    expect(roundHalfEvenToCents(UNITS_PER_CENT / 2n)).toBe(0n);
    expect(roundHalfEvenToCents((3n * UNITS_PER_CENT) / 2n)).toBe(2n);
  });

  it('pays the rounded month plus carry and carries the rest, at most half a cent either way', () => {
    const half = UNITS_PER_CENT / 2n;
    expect(monthEndPayment(0n, 10n * UNITS_PER_CENT + half)).toEqual({ paidCents: 10n, carryUnits: half });
    expect(monthEndPayment(half, 10n * UNITS_PER_CENT + half)).toEqual({ paidCents: 11n, carryUnits: 0n });
    expect(monthEndPayment(-half, 3n)).toEqual({ paidCents: 0n, carryUnits: -half + 3n });
    expect(monthEndPayment(0n, 0n)).toEqual({ paidCents: 0n, carryUnits: 0n });
    expect(bookedCentsOf(half, half)).toBe(1n);
  });

  it('knows the last day of a month, leap years included', () => {
    expect(isLastDayOfMonth('2028-02-29')).toBe(true);
    expect(isLastDayOfMonth('2027-02-28')).toBe(true);
    expect(isLastDayOfMonth('2028-02-28')).toBe(false);
    expect(isLastDayOfMonth('2026-12-31')).toBe(true);
    expect(isLastDayOfMonth('2026-04-30')).toBe(true);
    expect(isLastDayOfMonth('2026-05-30')).toBe(false);
  });

  it('counts an event whose date has already accrued from the day after the accrual', () => {
    expect(interestEffectiveDate('2026-03-05', null)).toBe('2026-03-05');
    expect(interestEffectiveDate('2026-03-05', '2026-03-04')).toBe('2026-03-05');
    expect(interestEffectiveDate('2026-03-05', '2026-03-05')).toBe('2026-03-06');
    expect(interestEffectiveDate('2026-02-28', '2026-03-31')).toBe('2026-04-01');
  });
});

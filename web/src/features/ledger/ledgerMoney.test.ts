import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../components/money';
import { centsToDecimal, dollarsToCents, sumCents } from './ledgerMoney';

describe('exact ledger sums', () => {
  it('reads dollars into cents from their decimal form', () => {
    expect(dollarsToCents(1250.5)).toBe(125050n);
    expect(dollarsToCents(0.07)).toBe(7n);
    expect(dollarsToCents(-42.1)).toBe(-4210n);
    expect(dollarsToCents(9_999_999_999_999.99)).toBe(999_999_999_999_999n);
    expect(() => dollarsToCents(0.1 + 0.2)).toThrow(RangeError);
  });

  it('sums without floating point: 0.1 + 0.2 is 0.30', () => {
    expect(sumCents([0.1, 0.2])).toBe(30n);
    expect(centsToDecimal(sumCents([0.1, 0.2]))).toBe('0.30');
    expect(sumCents([])).toBe(0n);
  });

  it('prints cents as an exact decimal that formatMoney shows', () => {
    expect(centsToDecimal(-123050n)).toBe('-1230.50');
    expect(centsToDecimal(5n)).toBe('0.05');
    expect(formatMoney(centsToDecimal(999_999_999_999_999n))).toBe('$9,999,999,999,999.99');
    expect(formatMoney(centsToDecimal(-5n))).toBe('-$0.05');
  });
});

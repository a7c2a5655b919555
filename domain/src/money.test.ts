import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToDecimalString, centsToDollars, formatUsd, MAX_AMOUNT_CENTS, MAX_BALANCE_CENTS, MoneyFormatError, parseDollars, toCents } from './money';

describe('parseDollars', () => {
  it.each([
    [1250.5, 125050],
    ['1250.5', 125050],
    ['1250.50', 125050],
    [0.1, 10],
    [0.29, 29],
    [19.99, 1999],
    ['  42 ', 4200],
    ['007.10', 710],
    [0, 0],
    [-0, 0],
    ['1000000000', MAX_AMOUNT_CENTS],
    [1_000_000_000, MAX_AMOUNT_CENTS],
    ['999999999.99', MAX_AMOUNT_CENTS - 1],
  ])('reads %j as %i cents from its decimal form', (input, cents) => {
    expect(parseDollars(input)).toEqual({ ok: true, cents });
  });

  it.each([
    [Number.NaN, 'not_a_number'],
    [Number.POSITIVE_INFINITY, 'not_finite'],
    [Number.NEGATIVE_INFINITY, 'not_finite'],
    ['1e3', 'exponent'],
    ['1.5E-2', 'exponent'],
    [1e21, 'exponent'],
    [1e-7, 'exponent'],
    ['1.005', 'too_many_decimals'],
    [0.1 + 0.2, 'too_many_decimals'],
    [1.001, 'too_many_decimals'],
    ['-5', 'negative'],
    [-0.01, 'negative'],
    ['1000000000.01', 'too_large'],
    [1_000_000_001, 'too_large'],
    ['99999999999999999999', 'too_large'],
    ['', 'empty'],
    ['   ', 'empty'],
    ['abc', 'not_a_number'],
    ['1,000', 'not_a_number'],
    ['$5', 'not_a_number'],
    ['+5', 'not_a_number'],
    ['.5', 'not_a_number'],
    ['5.', 'not_a_number'],
    ['0x10', 'not_a_number'],
    [null, 'not_a_number'],
    [undefined, 'not_a_number'],
    [true, 'not_a_number'],
    [{}, 'not_a_number'],
  ])('refuses %j (%s)', (input, error) => {
    const result = parseDollars(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe(error);
  });

  it('accepts negatives only when allowed', () => {
    expect(parseDollars('-12.34', { allowNegative: true })).toEqual({ ok: true, cents: -1234 });
    expect(parseDollars(-0.5, { allowNegative: true })).toEqual({ ok: true, cents: -50 });
    expect(parseDollars('-1000000000.01', { allowNegative: true })).toMatchObject({ ok: false, error: 'too_large' });
  });

  it('gives a readable message with each refusal', () => {
    expect(parseDollars('1.234')).toEqual({ ok: false, error: 'too_many_decimals', message: 'Amount must have at most two decimals' });
  });
});

describe('toCents', () => {
  it('returns cents or throws MoneyFormatError with the reason', () => {
    expect(toCents('12.3')).toBe(1230);
    expect(() => toCents('12.345')).toThrow(MoneyFormatError);
    try {
      toCents('nope');
    } catch (error) {
      expect(error).toMatchObject({ code: 'not_a_number', message: 'Amount must be a number' });
    }
  });
});

describe('centsToDollars and formatting', () => {
  it('converts exactly for the JSON edge', () => {
    expect(centsToDollars(125050)).toBe(1250.5);
    expect(JSON.stringify({ amount: centsToDollars(125050) })).toBe('{"amount":1250.5}');
    expect(centsToDollars(1)).toBe(0.01);
    expect(centsToDollars(-1999)).toBe(-19.99);
    expect(Object.is(centsToDollars(0), 0)).toBe(true);
    expect(centsToDollars(MAX_BALANCE_CENTS)).toBe(9999999999999.99);
  });

  it('formats US dollars with grouping and two decimals', () => {
    expect(formatUsd(125050)).toBe('$1,250.50');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(100_000_000_000)).toBe('$1,000,000,000.00');
    expect(formatUsd(-123456)).toBe('-$1,234.56');
    expect(centsToDecimalString(120)).toBe('1.20');
  });

  it('refuses a bigint', () => {
    expect(parseDollars(10n)).toMatchObject({ ok: false, error: 'not_a_number' });
  });

  it('refuses non-integer or out-of-range cents', () => {
    expect(() => centsToDollars(1.5)).toThrow(RangeError);
    expect(() => formatUsd(Number.NaN)).toThrow(RangeError);
    expect(() => centsToDollars(MAX_BALANCE_CENTS + 1)).toThrow(RangeError);
  });
});

describe('money round-trips (property)', () => {
  const amountCents = fc.integer({ min: 0, max: MAX_AMOUNT_CENTS });
  const anyCents = fc.integer({ min: -MAX_BALANCE_CENTS, max: MAX_BALANCE_CENTS });

  it('cents → dollars (JSON number) → cents is the identity', () => {
    fc.assert(fc.property(amountCents, (cents) => parseDollars(centsToDollars(cents)).ok && toCents(centsToDollars(cents)) === cents));
  });

  it('cents → JSON text → parse → cents is the identity', () => {
    fc.assert(fc.property(amountCents, (cents) => toCents(JSON.parse(JSON.stringify(centsToDollars(cents)))) === cents));
  });

  it('cents → decimal string → cents is the identity, negatives included', () => {
    fc.assert(fc.property(fc.integer({ min: -MAX_AMOUNT_CENTS, max: MAX_AMOUNT_CENTS }), (cents) => toCents(centsToDecimalString(cents), { allowNegative: true }) === cents));
  });

  it('formatUsd → strip "$" and "," → cents is the identity', () => {
    fc.assert(
      fc.property(anyCents.filter((c) => Math.abs(c) <= MAX_AMOUNT_CENTS), (cents) => {
        const formatted = formatUsd(cents);
        expect(formatted).toMatch(/^-?\$\d{1,3}(,\d{3})*\.\d{2}$/);
        return toCents(formatted.replace(/[$,]/g, ''), { allowNegative: true }) === cents;
      }),
    );
  });

  it('every balance converts to a JSON number whose shortest form is the exact decimal', () => {
    const twoDecimals = (text: string): string => {
      const [whole = '', fraction = ''] = text.split('.');
      return `${whole}.${fraction.padEnd(2, '0')}`;
    };
    fc.assert(
      fc.property(anyCents, (cents) => {
        const text = String(centsToDollars(cents));
        return !/e/.test(text) && twoDecimals(text) === centsToDecimalString(cents);
      }),
    );
  });

  it('strings with 1 or 2 decimals parse to integer cents without float error', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_DOLLARS_INT }), fc.integer({ min: 0, max: 99 }), (whole, fraction) => {
        const text = `${whole}.${String(fraction).padStart(2, '0')}`;
        const result = parseDollars(text);
        return whole === MAX_DOLLARS_INT && fraction > 0 ? !result.ok : result.ok && result.cents === whole * 100 + fraction;
      }),
    );
  });

  it('any number with more than two decimals is refused', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), (value) => {
        const result = parseDollars(value, { allowNegative: true });
        const decimals = String(value).split('.')[1]?.length ?? 0;
        if (/e/.test(String(value)) || decimals > 2) return !result.ok;
        return result.ok;
      }),
    );
  });
});

const MAX_DOLLARS_INT = 1_000_000_000;

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bankIdentity } from '../bank';
import { isValidRoutingNumber, routingCheckDigit } from './routingNumber';

describe('ABA routing numbers', () => {
  it('accepts published routing numbers', () => {
    // JPMorgan Chase NY, Federal Reserve Bank of Boston, Wells Fargo CA, the bank's own default.
    for (const routing of ['021000021', '011000015', '121000358', '011000028', '026009593', bankIdentity.routingNumber]) {
      expect(isValidRoutingNumber(routing), routing).toBe(true);
    }
  });

  it('refuses a wrong check digit, the wrong length and anything but digits', () => {
    for (const routing of ['021000022', '123456789', '111111111', '02100002', '0210000210', '02100002a', ' 021000021', '', '02100-0021']) {
      expect(isValidRoutingNumber(routing), routing).toBe(false);
    }
  });

  it('computes the check digit: 3·d1 + 7·d2 + d3 + … ≡ 0 mod 10', () => {
    expect(routingCheckDigit('02100002')).toBe(1);
    expect(routingCheckDigit('01100001')).toBe(5);
    expect(routingCheckDigit('12100035')).toBe(8);
    expect(() => routingCheckDigit('1234567')).toThrow(RangeError);
  });

  it('exactly one of the ten last digits makes a valid number (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{8}$/), (firstEight) => {
        const valid = [...'0123456789'].filter((digit) => isValidRoutingNumber(firstEight + digit));
        expect(valid).toEqual([String(routingCheckDigit(firstEight))]);
      }),
    );
  });

  it('catches every single-digit typo (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{8}$/), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 9 }), (firstEight, position, shift) => {
        const valid = firstEight + String(routingCheckDigit(firstEight));
        const typo = valid.slice(0, position) + String((Number(valid[position]) + shift) % 10) + valid.slice(position + 1);
        expect(isValidRoutingNumber(typo)).toBe(false);
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { DomainError } from '../domainError';
import { apyOf, formatAnnualRate, parseAnnualRate } from './interestRates';
import { decideInterestRates, evolveInterestRates, initialInterestRatesState, rateOn, ratesListed, type InterestRatesState } from './interestRatesDecider';

const NOW = '2026-06-01T10:00:00.000Z';
const ADMIN = '00000000-0000-4000-8000-000000000001';

function schedule(state: InterestRatesState, account: 'savings' | 'checking', annualRate: number, effectiveFrom: string, businessDate = '2026-06-01'): InterestRatesState {
  const events = decideInterestRates({ type: 'ScheduleInterestRate', account, annualRate, effectiveFrom, businessDate, actorId: ADMIN, now: NOW }, state);
  return events.reduce(evolveInterestRates, state);
}

describe('interest rates', () => {
  it('parses percent with at most four decimals in 0–25', () => {
    expect(parseAnnualRate('5.00')).toBe(50_000);
    expect(parseAnnualRate(5)).toBe(50_000);
    expect(parseAnnualRate(4.125)).toBe(41_250);
    expect(parseAnnualRate('0')).toBe(0);
    expect(parseAnnualRate('25')).toBe(250_000);
    expect(parseAnnualRate('0.0001')).toBe(1);
    expect(parseAnnualRate('25.0001')).toBeUndefined();
    expect(parseAnnualRate('1.23456')).toBeUndefined();
    expect(parseAnnualRate(-1)).toBeUndefined();
    expect(parseAnnualRate('abc')).toBeUndefined();
    expect(parseAnnualRate(1e-7)).toBeUndefined();
    expect(parseAnnualRate(null)).toBeUndefined();
    expect(parseAnnualRate(Number.NaN)).toBeUndefined();
  });

  it('formats rates with at least two decimals', () => {
    expect(formatAnnualRate(50_000)).toBe('5.00');
    expect(formatAnnualRate(41_250)).toBe('4.125');
    expect(formatAnnualRate(1)).toBe('0.0001');
    expect(formatAnnualRate(0)).toBe('0.00');
    expect(formatAnnualRate(250_000)).toBe('25.00');
  });

  it('gives the APY of monthly compounding, two decimals', () => {
    // 100 × ((1 + 0.05/12)^12 − 1) = 5.1161897881…
    expect(apyOf(50_000)).toBe('5.12');
    expect(apyOf(0)).toBe('0.00');
    // 100 × ((1 + 0.01/12)^12 − 1) = 1.00459…
    expect(apyOf(10_000)).toBe('1.00');
    // 100 × ((1 + 0.25/12)^12 − 1) = 28.0732…
    expect(apyOf(250_000)).toBe('28.07');
  });

  it('holds the defaults until a change takes effect, and lists in-force and future rates only', () => {
    let state = initialInterestRatesState;
    expect(rateOn(state, 'savings', '2026-06-01')).toBe(50_000);
    expect(rateOn(state, 'checking', '2026-06-01')).toBe(0);
    state = schedule(state, 'savings', 45_000, '2026-06-10');
    state = schedule(state, 'savings', 40_000, '2026-07-01');
    expect(rateOn(state, 'savings', '2026-06-09')).toBe(50_000);
    expect(rateOn(state, 'savings', '2026-06-10')).toBe(45_000);
    expect(rateOn(state, 'savings', '2026-07-01')).toBe(40_000);
    expect(ratesListed(state, '2026-06-01', '2026-01-01')).toEqual([
      { account: 'savings', annualRate: 50_000, effectiveFrom: '2026-01-01' },
      { account: 'savings', annualRate: 45_000, effectiveFrom: '2026-06-10' },
      { account: 'savings', annualRate: 40_000, effectiveFrom: '2026-07-01' },
      { account: 'checking', annualRate: 0, effectiveFrom: '2026-01-01' },
    ]);
    expect(ratesListed(state, '2026-06-15', '2026-01-01').filter((rate) => rate.account === 'savings')).toEqual([
      { account: 'savings', annualRate: 45_000, effectiveFrom: '2026-06-10' },
      { account: 'savings', annualRate: 40_000, effectiveFrom: '2026-07-01' },
    ]);
  });

  it('replaces a second change for the same date', () => {
    let state = schedule(initialInterestRatesState, 'checking', 1_000, '2026-06-10');
    state = schedule(state, 'checking', 2_000, '2026-06-10');
    expect(state.changes.checking).toEqual([{ account: 'checking', annualRate: 2_000, effectiveFrom: '2026-06-10' }]);
  });

  it('refuses a change from today or earlier', () => {
    const attempt = (): unknown => schedule(initialInterestRatesState, 'savings', 40_000, '2026-06-01');
    expect(attempt).toThrow(DomainError);
    expect(attempt).toThrow('Rates change from tomorrow at the earliest');
  });
});

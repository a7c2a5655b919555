import { describe, expect, it } from 'vitest';
import { statementMonthOf } from './statementNotices';

const close = (businessDate: unknown) => ({ type: 'BusinessDayClosed', data: { businessDate } });

describe('which day close makes a month’s statements ready (statementMonthOf)', () => {
  it('the close of a month’s last day, leap years included, names the month', () => {
    expect(statementMonthOf(close('2026-01-31'))).toBe('January 2026');
    expect(statementMonthOf(close('2026-11-30'))).toBe('November 2026');
    expect(statementMonthOf(close('2028-02-29'))).toBe('February 2028');
    expect(statementMonthOf(close('2026-02-28'))).toBe('February 2026');
    expect(statementMonthOf(close('2026-12-31'))).toBe('December 2026');
  });

  it('any other day, another event or a malformed date: none', () => {
    expect(statementMonthOf(close('2026-01-30'))).toBeUndefined();
    expect(statementMonthOf(close('2028-02-28'))).toBeUndefined();
    expect(statementMonthOf(close('2026-1-31'))).toBeUndefined();
    expect(statementMonthOf(close(undefined))).toBeUndefined();
    expect(statementMonthOf({ type: 'CobStepCompleted', data: { businessDate: '2026-01-31' } })).toBeUndefined();
  });
});

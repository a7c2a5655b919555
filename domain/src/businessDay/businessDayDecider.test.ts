import { describe, expect, it } from 'vitest';
import type { BusinessDayClose } from '../events/businessDayEvents';
import { deciderSpecification, refused } from '../testing/deciderSpecification';
import { NOW } from '../testing/fixtures';
import type { BusinessDayEvent } from './businessDayDecider';
import { businessDayDecider, datesDueForClose, evolveBusinessDay, initialBusinessDayState, openBusinessDate, requireManualAdvance } from './businessDayDecider';

const { given } = deciderSpecification(businessDayDecider);

const started: BusinessDayEvent = { type: 'BusinessCalendarStarted', data: { firstDate: '2025-06-01', mode: 'manual', startedAt: NOW } };
const standingOrdersDone = (businessDate: string): BusinessDayEvent => ({ type: 'CobStepCompleted', data: { businessDate, step: 'standingOrders', completedAt: NOW } });
const interestDone = (businessDate: string): BusinessDayEvent => ({ type: 'CobStepCompleted', data: { businessDate, step: 'interest', completedAt: NOW } });
const achDone = (businessDate: string): BusinessDayEvent => ({ type: 'CobStepCompleted', data: { businessDate, step: 'achSettlement', completedAt: NOW } });

function close(businessDate: string): BusinessDayClose {
  return {
    businessDate,
    closedAt: NOW,
    throughPosition: '00000000000000000007:00000000000000000007',
    accounts: [{ key: 'cash-at-fed', debitsCents: '0', creditsCents: '0' }],
    totalDebitsCents: '0',
    totalCreditsCents: '0',
    balanced: true,
    journalHash: 'a'.repeat(64),
    lineCount: 0,
  };
}
const closed = (businessDate: string): BusinessDayEvent => ({ type: 'BusinessDayClosed', data: close(businessDate) });

function stateOf(events: BusinessDayEvent[]) {
  return events.reduce(evolveBusinessDay, initialBusinessDayState);
}

describe('the business calendar', () => {
  it('starts once, on its first date', () => {
    given([]).when({ type: 'StartBusinessCalendar', firstDate: '2025-06-01', mode: 'manual', now: NOW }).then([started]);
    given([started]).when({ type: 'StartBusinessCalendar', firstDate: '2025-07-01', mode: 'manual', now: NOW }).then([]);
  });

  it('runs the standing orders step once for the open date, before the close', () => {
    given([started]).when({ type: 'CompleteCobStep', businessDate: '2025-06-01', step: 'standingOrders', now: NOW }).then([standingOrdersDone('2025-06-01')]);
    given([started, standingOrdersDone('2025-06-01')]).when({ type: 'CompleteCobStep', businessDate: '2025-06-01', step: 'standingOrders', now: NOW }).then([]);
  });

  it('closes the open date once its steps are done, and a date already closed again decides nothing', () => {
    given([started, standingOrdersDone('2025-06-01')]).when({ type: 'CloseBusinessDay', close: close('2025-06-01') }).then(refused('invalid_business_date', 'COB steps not done for 2025-06-01: achSettlement, interest'));
    given([started, standingOrdersDone('2025-06-01'), achDone('2025-06-01'), interestDone('2025-06-01')]).when({ type: 'CloseBusinessDay', close: close('2025-06-01') }).then([closed('2025-06-01')]);
    given([started, standingOrdersDone('2025-06-01'), achDone('2025-06-01'), interestDone('2025-06-01'), closed('2025-06-01')]).when({ type: 'CloseBusinessDay', close: close('2025-06-01') }).then([]);
    given([started, standingOrdersDone('2025-06-01'), achDone('2025-06-01'), interestDone('2025-06-01'), closed('2025-06-01')])
      .when({ type: 'CompleteCobStep', businessDate: '2025-06-01', step: 'standingOrders', now: NOW })
      .then([]);
  });

  it('refuses a close before its steps, a date out of order, and anything before the calendar starts', () => {
    given([started]).when({ type: 'CloseBusinessDay', close: close('2025-06-01') }).then(refused('invalid_business_date', 'COB steps not done for 2025-06-01: standingOrders, achSettlement, interest'));
    given([started]).when({ type: 'CloseBusinessDay', close: close('2025-06-03') }).then(refused('invalid_business_date', 'The business date to close is 2025-06-01, not 2025-06-03'));
    given([]).when({ type: 'CompleteCobStep', businessDate: '2025-06-01', step: 'standingOrders', now: NOW }).then(refused('invalid_business_date', 'The business calendar has not started'));
  });

  it('moves the open date after each close in manual mode, and follows the clock in calendar mode', () => {
    const state = stateOf([started, standingOrdersDone('2025-06-01'), closed('2025-06-01')]);
    expect(openBusinessDate(state, 'manual', '2030-01-01')).toBe('2025-06-02');
    expect(openBusinessDate(state, 'calendar', '2030-01-01')).toBe('2030-01-01');
    expect(state.stepsDone).toEqual([]);
  });

  it('in calendar mode, every date not closed that has ended is due, oldest first', () => {
    const state = stateOf([started, standingOrdersDone('2025-06-01'), closed('2025-06-01')]);
    expect(datesDueForClose(state, '2025-06-04')).toEqual(['2025-06-02', '2025-06-03']);
    expect(datesDueForClose(state, '2025-06-02')).toEqual([]);
    expect(datesDueForClose(initialBusinessDayState, '2025-06-02')).toEqual([]);
  });

  it('advances by hand only in manual mode, by 1 to 366 days', () => {
    expect(() => requireManualAdvance('calendar', 1)).toThrow('The business date follows the calendar');
    expect(() => requireManualAdvance('manual', 0)).toThrow(RangeError);
    expect(() => requireManualAdvance('manual', 367)).toThrow(RangeError);
    expect(() => requireManualAdvance('manual', 1.5)).toThrow(RangeError);
    expect(() => requireManualAdvance('manual', 366)).not.toThrow();
  });

  describe('the interest step', () => {
    const rates = { savings: 50_000, checking: 0 };
    const accrued = (businessDate: string): BusinessDayEvent => ({ type: 'InterestAccrued', data: { businessDate, rates, accruedAt: NOW } });
    const booked = (businessDate: string): BusinessDayEvent => ({
      type: 'InterestBooked',
      data: { businessDate, accounts: 2, accruedUnits: '123456789', bookedCents: 3, bookedAt: NOW },
    });
    const book = { type: 'BookInterest', businessDate: '2025-06-30', accounts: 2, accruedUnits: '123456789', bookedCents: 3, now: NOW } as const;
    const june30 = [started, ...Array.from({ length: 29 }, (_, day) => closed(`2025-06-${String(day + 1).padStart(2, '0')}`)), standingOrdersDone('2025-06-30')];

    it('accrues, books and closes the month once each, in that order, after the standing orders', () => {
      given(june30).when({ type: 'AccrueInterest', businessDate: '2025-06-30', rates, now: NOW }).then([accrued('2025-06-30')]);
      given([...june30, accrued('2025-06-30')]).when({ type: 'AccrueInterest', businessDate: '2025-06-30', rates, now: NOW }).then([]);
      given([...june30, accrued('2025-06-30')]).when(book).then([booked('2025-06-30')]);
      given([...june30, accrued('2025-06-30'), booked('2025-06-30')]).when(book).then([]);
      const closeMonth = { type: 'CloseInterestMonth', businessDate: '2025-06-30', paidAccounts: 1, paidCents: '3', now: NOW } as const;
      const monthClosed: BusinessDayEvent = { type: 'InterestMonthClosed', data: { month: '2025-06', businessDate: '2025-06-30', paidAccounts: 1, paidCents: '3', closedAt: NOW } };
      given([...june30, accrued('2025-06-30'), booked('2025-06-30')]).when(closeMonth).then([monthClosed]);
      given([...june30, accrued('2025-06-30'), booked('2025-06-30'), monthClosed]).when(closeMonth).then([]);
      expect(stateOf([...june30, accrued('2025-06-30'), booked('2025-06-30'), monthClosed]).interest).toEqual({ lastAccrued: '2025-06-30', lastBooked: '2025-06-30', lastMonthClosed: '2025-06' });
    });

    it('refuses to book before the accrual, to close a month before its last day or before it is booked, and to run before the standing orders', () => {
      given(june30).when(book).then(refused('invalid_business_date', 'Interest for 2025-06-30 is booked after it accrues'));
      given(june30)
        .when({ type: 'CloseInterestMonth', businessDate: '2025-06-30', paidAccounts: 0, paidCents: '0', now: NOW })
        .then(refused('invalid_business_date', "The month closes after 2025-06-30's interest is booked"));
      given([started, standingOrdersDone('2025-06-01'), accrued('2025-06-01'), booked('2025-06-01')])
        .when({ type: 'CloseInterestMonth', businessDate: '2025-06-01', paidAccounts: 0, paidCents: '0', now: NOW })
        .then(refused('invalid_business_date', '2025-06-01 is not the last day of its month'));
      given([started]).when({ type: 'AccrueInterest', businessDate: '2025-06-01', rates, now: NOW }).then(refused('invalid_business_date', 'Interest runs after standingOrders'));
      given([started, standingOrdersDone('2025-06-01')]).when({ type: 'AccrueInterest', businessDate: '2025-06-02', rates, now: NOW }).then(refused('invalid_business_date', 'The business date to close is 2025-06-01, not 2025-06-02'));
    });
  });
});

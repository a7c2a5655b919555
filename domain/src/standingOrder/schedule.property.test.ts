import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, dateOfDay, dayNumber, daysInMonth, isoWeekday, nextOccurrence, occurrences, occurrencesBetween, scheduleProblem, type Schedule } from './schedule';

const dateArb = fc.integer({ min: dayNumber('1999-01-01'), max: dayNumber('2099-12-31') }).map(dateOfDay);
const scheduleArb: fc.Arbitrary<Schedule> = fc
  .record({
    frequency: fc.constantFrom<'weekly' | 'monthly'>('weekly', 'monthly'),
    dayOfMonth: fc.integer({ min: 1, max: 31 }),
    dayOfWeek: fc.integer({ min: 1, max: 7 }),
    firstDate: dateArb,
    endAfterDays: fc.option(fc.integer({ min: 0, max: 1500 }), { nil: undefined }),
    count: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
  })
  .map(({ frequency, dayOfMonth, dayOfWeek, firstDate, endAfterDays, count }) => ({
    frequency,
    day: frequency === 'weekly' ? dayOfWeek : dayOfMonth,
    firstDate,
    endDate: endAfterDays === undefined ? undefined : addDays(firstDate, endAfterDays),
    count,
  }));

const take = (schedule: Schedule, n: number): string[] => {
  const found: string[] = [];
  for (const date of occurrences(schedule)) {
    found.push(date);
    if (found.length >= n) break;
  }
  return found;
};

describe('a schedule', () => {
  it('gives valid dates, strictly increasing, on or after the first date and on or before the end date, at most count', () => {
    fc.assert(
      fc.property(scheduleArb, (schedule) => {
        expect(scheduleProblem(schedule)).toBeUndefined();
        const dates = take(schedule, 80);
        for (const [i, date] of dates.entries()) {
          expect(dateOfDay(dayNumber(date))).toBe(date);
          expect(date >= schedule.firstDate).toBe(true);
          if (schedule.endDate !== undefined) expect(date <= schedule.endDate).toBe(true);
          if (i > 0) expect(date > dates[i - 1]!).toBe(true);
        }
        if (schedule.count !== undefined) expect(dates.length).toBeLessThanOrEqual(schedule.count);
        if (schedule.count !== undefined && schedule.endDate === undefined) expect(dates).toHaveLength(Math.min(80, schedule.count));
      }),
    );
  });

  it('pays weekly on its weekday, every 7 days, the first within a week of the first date', () => {
    fc.assert(
      fc.property(scheduleArb.filter((s) => s.frequency === 'weekly'), (schedule) => {
        const dates = take(schedule, 30);
        for (const date of dates) expect(isoWeekday(date)).toBe(schedule.day);
        if (dates[0] !== undefined) expect(dayNumber(dates[0]) - dayNumber(schedule.firstDate)).toBeLessThan(7);
        for (let i = 1; i < dates.length; i += 1) expect(dayNumber(dates[i]!) - dayNumber(dates[i - 1]!)).toBe(7);
      }),
    );
  });

  it('pays monthly once a month on its day, or the month’s last day when the month is shorter', () => {
    fc.assert(
      fc.property(scheduleArb.filter((s) => s.frequency === 'monthly'), (schedule) => {
        const dates = take(schedule, 30);
        const months = dates.map((date) => date.slice(0, 7));
        expect(new Set(months).size).toBe(months.length);
        for (const date of dates) {
          const [year, month, day] = date.split('-').map(Number) as [number, number, number];
          expect(day).toBe(Math.min(schedule.day, daysInMonth(year, month)));
        }
      }),
    );
  });

  it('between two dates gives exactly the occurrences in the range; the next after a date is the first of them', () => {
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: -40, max: 800 }), fc.integer({ min: 0, max: 400 }), (schedule, startOffset, length) => {
        const from = addDays(schedule.firstDate, startOffset);
        const to = addDays(from, length);
        const all = take(schedule, 1000);
        expect(occurrencesBetween(schedule, from, to)).toEqual(all.filter((date) => date >= from && date <= to));
        const after = addDays(from, -1);
        expect(nextOccurrence(schedule, after)).toBe(all.find((date) => date > after));
      }),
    );
  });

  it('knows month ends and leap years', () => {
    const monthly31: Schedule = { frequency: 'monthly', day: 31, firstDate: '2023-12-01' };
    expect(take(monthly31, 5)).toEqual(['2023-12-31', '2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30']);
    expect(occurrencesBetween({ frequency: 'monthly', day: 29, firstDate: '2100-01-01' }, '2100-02-01', '2100-02-28')).toEqual(['2100-02-28']);
    expect(occurrencesBetween({ frequency: 'monthly', day: 30, firstDate: '2000-01-01' }, '2000-02-01', '2000-03-01')).toEqual(['2000-02-29']);
    // The first date after the month's day: the first payment is the next month's.
    expect(take({ frequency: 'monthly', day: 5, firstDate: '2024-01-06' }, 1)).toEqual(['2024-02-05']);
  });

  it('pays weekly on the same weekday across daylight-saving changes (UTC calendar days)', () => {
    // Europe and the US change clocks in late March / early November; the dates stay 7 days apart.
    expect(occurrencesBetween({ frequency: 'weekly', day: 7, firstDate: '2024-03-20' }, '2024-03-20', '2024-04-10')).toEqual(['2024-03-24', '2024-03-31', '2024-04-07']);
    expect(occurrencesBetween({ frequency: 'weekly', day: 1, firstDate: '2024-10-21' }, '2024-10-21', '2024-11-12')).toEqual(['2024-10-21', '2024-10-28', '2024-11-04', '2024-11-11']);
  });

  it('ends after N payments or at the end date, whichever comes first', () => {
    expect(take({ frequency: 'weekly', day: 1, firstDate: '2024-01-01', count: 3 }, 10)).toEqual(['2024-01-01', '2024-01-08', '2024-01-15']);
    expect(take({ frequency: 'weekly', day: 1, firstDate: '2024-01-01', count: 3, endDate: '2024-01-10' }, 10)).toEqual(['2024-01-01', '2024-01-08']);
    expect(nextOccurrence({ frequency: 'monthly', day: 1, firstDate: '2024-01-01', count: 2 }, '2024-02-01')).toBeUndefined();
  });

  it('refuses bad schedules', () => {
    expect(scheduleProblem({ frequency: 'weekly', day: 8, firstDate: '2024-01-01' })).toBe('Day must be 1 (Monday) to 7 (Sunday)');
    expect(scheduleProblem({ frequency: 'monthly', day: 0, firstDate: '2024-01-01' })).toBe('Day must be 1 to 31');
    expect(scheduleProblem({ frequency: 'monthly', day: 3, firstDate: '2024-02-30' })).toBe('First date is not a valid date');
    expect(scheduleProblem({ frequency: 'monthly', day: 3, firstDate: '2024-02-03', endDate: '2024-02-02' })).toBe('End date must be a valid date on or after the first date');
    expect(scheduleProblem({ frequency: 'monthly', day: 3, firstDate: '2024-02-03', count: 0 })).toBe('Number of payments must be 1 to 10000');
  });
});

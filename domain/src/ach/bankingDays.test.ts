import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bankingDayOnOrAfter, federalReserveHolidayOn, federalReserveHolidays, isBankingDay, nextBankingDay } from './bankingDays';

/**
 * The Federal Reserve's published holiday schedule (federalreserve.gov, "Holidays Observed by the Federal Reserve
 * System"), as the days the Reserve Banks are closed: a Sunday holiday closes the Monday after, a Saturday one
 * (marked * in the Fed's table) closes nothing.
 */
const published: Record<number, string[]> = {
  2025: ['2025-01-01', '2025-01-20', '2025-02-17', '2025-05-26', '2025-06-19', '2025-07-04', '2025-09-01', '2025-10-13', '2025-11-11', '2025-11-27', '2025-12-25'],
  // July 4 is a Saturday: no closing day.
  2026: ['2026-01-01', '2026-01-19', '2026-02-16', '2026-05-25', '2026-06-19', '2026-09-07', '2026-10-12', '2026-11-11', '2026-11-26', '2026-12-25'],
  // June 19 and December 25 are Saturdays; July 4 is a Sunday: Monday July 5.
  2027: ['2027-01-01', '2027-01-18', '2027-02-15', '2027-05-31', '2027-07-05', '2027-09-06', '2027-10-11', '2027-11-11', '2027-11-25'],
  // January 1 and November 11 are Saturdays.
  2028: ['2028-01-17', '2028-02-21', '2028-05-29', '2028-06-19', '2028-07-04', '2028-09-04', '2028-10-09', '2028-11-23', '2028-12-25'],
};

describe('Federal Reserve holidays', () => {
  it.each(Object.entries(published))('%s: the days the Fed is closed, as it publishes them', (year, dates) => {
    expect(federalReserveHolidays(Number(year)).map((holiday) => holiday.date)).toEqual(dates);
  });

  it('earlier years: Sunday holidays close the Monday (2022, 2023), Saturday ones nothing (2021, 2023)', () => {
    expect(federalReserveHolidayOn('2022-06-20')?.name).toBe('Juneteenth National Independence Day');
    expect(federalReserveHolidayOn('2022-12-26')?.name).toBe('Christmas Day');
    expect(federalReserveHolidayOn('2023-01-02')?.name).toBe("New Year's Day");
    expect(isBankingDay('2021-12-24')).toBe(true); // Christmas 2021 was a Saturday
    expect(isBankingDay('2021-12-31')).toBe(true); // and so was New Year's Day 2022: the year before moves nothing
    expect(isBankingDay('2023-11-10')).toBe(true); // Veterans Day 2023 was a Saturday
    expect(isBankingDay('2021-06-18')).toBe(true); // Juneteenth came to the Fed in 2022
  });

  it('names each holiday', () => {
    expect(federalReserveHolidays(2025).map((holiday) => holiday.name)).toEqual([
      "New Year's Day",
      'Birthday of Martin Luther King, Jr.',
      "Washington's Birthday",
      'Memorial Day',
      'Juneteenth National Independence Day',
      'Independence Day',
      'Labor Day',
      'Columbus Day',
      'Veterans Day',
      'Thanksgiving Day',
      'Christmas Day',
    ]);
    expect(federalReserveHolidayOn('2025-11-28')).toBeUndefined();
  });
});

describe('banking days', () => {
  it('are Monday to Friday without the holidays', () => {
    expect(isBankingDay('2026-11-27')).toBe(true); // Friday after Thanksgiving
    expect(isBankingDay('2026-11-28')).toBe(false); // Saturday
    expect(isBankingDay('2026-11-29')).toBe(false); // Sunday
    expect(isBankingDay('2026-11-26')).toBe(false); // Thanksgiving
    expect(isBankingDay('2026-07-03')).toBe(true); // Friday before a Saturday July 4: the Fed is open
  });

  it('the next banking day: the effective date of a file built on a business date', () => {
    expect(nextBankingDay('2026-11-25')).toBe('2026-11-27'); // Wednesday → over Thanksgiving → Friday
    expect(nextBankingDay('2026-11-27')).toBe('2026-11-30'); // Friday → Monday
    expect(nextBankingDay('2026-11-28')).toBe('2026-11-30'); // Saturday → Monday
    expect(nextBankingDay('2027-07-02')).toBe('2027-07-06'); // Friday → over Sunday July 4 observed Monday → Tuesday
    expect(nextBankingDay('2025-12-31')).toBe('2026-01-02'); // over New Year's Day
    expect(nextBankingDay('2027-12-31')).toBe('2028-01-03'); // Saturday Jan 1 2028 moves nothing: Monday
    expect(nextBankingDay('2025-01-17')).toBe('2025-01-21'); // Friday → over MLK Day → Tuesday
    expect(nextBankingDay('2028-02-29')).toBe('2028-03-01'); // leap day
    expect(bankingDayOnOrAfter('2026-11-30')).toBe('2026-11-30');
    expect(bankingDayOnOrAfter('2026-11-26')).toBe('2026-11-27');
  });

  it('refuses what is not a date', () => {
    expect(() => nextBankingDay('2026-02-30')).toThrow(RangeError);
    expect(() => isBankingDay('26-1-1')).toThrow(RangeError);
  });

  it('over 2025–2028 there are 1,004 banking days; the next one is at most four calendar days on, with none between (property)', () => {
    let count = 0;
    for (let at = Date.UTC(2025, 0, 1); at <= Date.UTC(2028, 11, 31); at += 86_400_000) {
      if (isBankingDay(new Date(at).toISOString().slice(0, 10))) count += 1;
    }
    // 1,043 weekdays in 2025–2028 (261 + 261 + 261 + 260) minus the 39 closings above (11 + 10 + 9 + 9).
    expect(count).toBe(1043 - 39);
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) }), (at) => {
        const date = new Date(at - (at % 86_400_000)).toISOString().slice(0, 10);
        const next = nextBankingDay(date);
        const gap = (Date.parse(next) - Date.parse(date)) / 86_400_000;
        expect(next > date).toBe(true);
        expect(isBankingDay(next)).toBe(true);
        expect(gap).toBeGreaterThanOrEqual(1);
        expect(gap).toBeLessThanOrEqual(4);
        for (let day = 1; day < gap; day += 1) expect(isBankingDay(new Date(Date.parse(date) + day * 86_400_000).toISOString().slice(0, 10))).toBe(false);
      }),
    );
  });
});

/**
 * Banking days (pure, UTC calendar dates YYYY-MM-DD): Monday to Friday, without the Federal Reserve's holidays as
 * the Federal Reserve observes them. A holiday that falls on a Sunday closes the Monday after; one that falls on a
 * Saturday moves nothing (the Fed stays open the Friday before). ACH entries take effect on banking days only,
 * while the bank's business date moves every calendar day.
 */

export interface FederalReserveHoliday {
  /** The date the Fed is closed (a Monday for a Sunday holiday). */
  readonly date: string;
  readonly name: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

function toUtc(date: string): number {
  const match = DATE.exec(date);
  if (!match) throw new RangeError(`Not a YYYY-MM-DD date: ${date}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = Date.UTC(year, month - 1, day);
  const check = new Date(at);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new RangeError(`Not a calendar date: ${date}`);
  }
  return at;
}

function fromUtc(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

function ymd(year: number, month: number, day: number): string {
  return fromUtc(Date.UTC(year, month - 1, day));
}

/** 0 = Sunday … 6 = Saturday. */
function weekdayOf(date: string): number {
  return new Date(toUtc(date)).getUTCDay();
}

/** The n-th (1-based) given weekday of a month; n = -1 for the last. */
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  if (n > 0) {
    const firstWeekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return ymd(year, month, 1 + ((weekday - firstWeekday + 7) % 7) + (n - 1) * 7);
  }
  const lastDay = new Date(Date.UTC(year, month, 0));
  const back = (lastDay.getUTCDay() - weekday + 7) % 7;
  return ymd(year, month, lastDay.getUTCDate() - back);
}

/** A fixed-date holiday as the Fed observes it: Sunday → Monday; Saturday → no closing day (undefined). */
function observedFixed(year: number, month: number, day: number): string | undefined {
  const date = ymd(year, month, day);
  const weekday = weekdayOf(date);
  if (weekday === 6) return undefined;
  if (weekday === 0) return ymd(year, month, day + 1);
  return date;
}

const MONDAY = 1;
const THURSDAY = 4;

/** The days the Federal Reserve Banks are closed in `year` for a holiday, in date order. */
export function federalReserveHolidays(year: number): FederalReserveHoliday[] {
  if (!Number.isInteger(year) || year < 1971 || year > 9999) throw new RangeError(`Year out of range: ${year}`);
  const holidays: { date: string | undefined; name: string }[] = [
    { date: observedFixed(year, 1, 1), name: "New Year's Day" },
    // Birthday of Martin Luther King, Jr.: a federal holiday since 1986.
    { date: year >= 1986 ? nthWeekday(year, 1, MONDAY, 3) : undefined, name: 'Birthday of Martin Luther King, Jr.' },
    { date: nthWeekday(year, 2, MONDAY, 3), name: "Washington's Birthday" },
    { date: nthWeekday(year, 5, MONDAY, -1), name: 'Memorial Day' },
    // Juneteenth National Independence Day: the Federal Reserve observes it from 2022.
    { date: year >= 2022 ? observedFixed(year, 6, 19) : undefined, name: 'Juneteenth National Independence Day' },
    { date: observedFixed(year, 7, 4), name: 'Independence Day' },
    { date: nthWeekday(year, 9, MONDAY, 1), name: 'Labor Day' },
    { date: nthWeekday(year, 10, MONDAY, 2), name: 'Columbus Day' },
    { date: observedFixed(year, 11, 11), name: 'Veterans Day' },
    { date: nthWeekday(year, 11, THURSDAY, 4), name: 'Thanksgiving Day' },
    { date: observedFixed(year, 12, 25), name: 'Christmas Day' },
  ];
  return holidays.filter((holiday): holiday is FederalReserveHoliday => holiday.date !== undefined);
}

const holidaysByYear = new Map<number, ReadonlySet<string>>();

function holidayDates(year: number): ReadonlySet<string> {
  let dates = holidaysByYear.get(year);
  if (!dates) {
    dates = new Set(federalReserveHolidays(year).map((holiday) => holiday.date));
    holidaysByYear.set(year, dates);
  }
  return dates;
}

/** The Fed holiday that closes `date`, if any. */
export function federalReserveHolidayOn(date: string): FederalReserveHoliday | undefined {
  toUtc(date);
  return federalReserveHolidays(Number(date.slice(0, 4))).find((holiday) => holiday.date === date);
}

/** True for a Monday to Friday that is not a Federal Reserve holiday. */
export function isBankingDay(date: string): boolean {
  const weekday = weekdayOf(date);
  if (weekday === 0 || weekday === 6) return false;
  return !holidayDates(Number(date.slice(0, 4))).has(date);
}

/** The first banking day strictly after `date`: the effective date of an ACH file built on business date `date`. */
export function nextBankingDay(date: string): string {
  let at = toUtc(date);
  for (;;) {
    at += DAY_MS;
    const candidate = fromUtc(at);
    if (isBankingDay(candidate)) return candidate;
  }
}

/** `date` itself when it is a banking day, else the next one. */
export function bankingDayOnOrAfter(date: string): string {
  return isBankingDay(date) ? date : nextBankingDay(date);
}

import { isCalendarDate } from '../calendar';

/**
 * A standing order's schedule (pure, UTC calendar dates `YYYY-MM-DD`):
 *   weekly   on `day` 1–7 (Monday = 1), from `firstDate` on;
 *   monthly  on `day` 1–31 of each month, the month's last day when it is shorter;
 * ending after `endDate` (inclusive) or after `count` payments, whichever comes first (neither: open-ended).
 * Occurrences are numbered from the first one on or after `firstDate`.
 */
export type Frequency = 'weekly' | 'monthly';

export interface Schedule {
  readonly frequency: Frequency;
  readonly day: number;
  readonly firstDate: string;
  readonly endDate?: string | undefined;
  readonly count?: number | undefined;
}

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a calendar date. */
export function dayNumber(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/** The calendar date of a day number. */
export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return dateOfDay(dayNumber(date) + days);
}

/** ISO weekday of a date: Monday = 1 … Sunday = 7. */
export function isoWeekday(date: string): number {
  return ((((dayNumber(date) + 3) % 7) + 7) % 7) + 1;
}

/** Days in a month (1–12) of a year. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Why a schedule is not valid, or undefined when it is. */
export function scheduleProblem(schedule: Schedule): string | undefined {
  const { frequency, day, firstDate, endDate, count } = schedule;
  if (frequency !== 'weekly' && frequency !== 'monthly') return 'Frequency must be weekly or monthly';
  const maxDay = frequency === 'weekly' ? 7 : 31;
  if (!Number.isInteger(day) || day < 1 || day > maxDay) return frequency === 'weekly' ? 'Day must be 1 (Monday) to 7 (Sunday)' : 'Day must be 1 to 31';
  if (!isCalendarDate(firstDate)) return 'First date is not a valid date';
  if (endDate !== undefined && (!isCalendarDate(endDate) || endDate < firstDate)) return 'End date must be a valid date on or after the first date';
  if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > 10_000)) return 'Number of payments must be 1 to 10000';
  return undefined;
}

function dayInMonth(year: number, month: number, day: number): string {
  const date = Math.min(day, daysInMonth(year, month));
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
}

/** Every occurrence in order, ending by `endDate` / `count` (endless otherwise: take what you need). */
export function* occurrences(schedule: Schedule): Generator<string> {
  const limit = schedule.count ?? Number.POSITIVE_INFINITY;
  let emitted = 0;
  const within = (date: string): boolean => schedule.endDate === undefined || date <= schedule.endDate;
  if (schedule.frequency === 'weekly') {
    const offset = (schedule.day - isoWeekday(schedule.firstDate) + 7) % 7;
    for (let day = dayNumber(schedule.firstDate) + offset; emitted < limit; day += 7) {
      const date = dateOfDay(day);
      if (!within(date)) return;
      emitted += 1;
      yield date;
    }
    return;
  }
  let [year, month] = schedule.firstDate.split('-').map(Number) as [number, number];
  while (emitted < limit) {
    const date = dayInMonth(year, month, schedule.day);
    if (date >= schedule.firstDate) {
      if (!within(date)) return;
      emitted += 1;
      yield date;
    }
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
}

/** The occurrences with fromDate ≤ date ≤ toDate, in order. */
export function occurrencesBetween(schedule: Schedule, fromDate: string, toDate: string): string[] {
  const found: string[] = [];
  for (const date of occurrences(schedule)) {
    if (date > toDate) break;
    if (date >= fromDate) found.push(date);
  }
  return found;
}

/** The first occurrence strictly after `afterDate` (undefined when the schedule has ended). */
export function nextOccurrence(schedule: Schedule, afterDate: string): string | undefined {
  for (const date of occurrences(schedule)) if (date > afterDate) return date;
  return undefined;
}

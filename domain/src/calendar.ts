/** Calendar helpers (UTC, pure). */

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real YYYY-MM-DD date (2001-02-30 is false). */
export function isCalendarDate(value: string): boolean {
  const match = CALENDAR_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whole years between a YYYY-MM-DD birth date and an ISO instant (UTC calendar). Undefined if either is invalid. */
export function ageInYears(dateOfBirth: string, now: string): number | undefined {
  if (!isCalendarDate(dateOfBirth)) return undefined;
  const at = new Date(now);
  if (Number.isNaN(at.getTime())) return undefined;
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const nowMonth = at.getUTCMonth() + 1;
  const nowDay = at.getUTCDate();
  const beforeBirthday = nowMonth < month || (nowMonth === month && nowDay < day);
  return at.getUTCFullYear() - year - (beforeBirthday ? 1 : 0);
}

/** The UTC date (YYYY-MM-DD) of an ISO instant. */
export function utcDateOf(instant: string): string {
  return new Date(instant).toISOString().slice(0, 10);
}

/** The business date a money command carries: the one given, else the UTC date of `now`. */
export function businessDateOf(command: { readonly businessDate?: string | undefined; readonly now: string }): string {
  return command.businessDate ?? utcDateOf(command.now);
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A month's name with its year: '2026-03' (or a date in it) → 'March 2026'. */
export function monthName(month: string): string {
  const [year, number] = month.split('-');
  return `${MONTH_NAMES[Number(number) - 1] ?? month} ${year ?? ''}`.trim();
}

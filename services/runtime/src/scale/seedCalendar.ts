/**
 * The business calendar of a generated bank: its history is written day by day, as the bank would have recorded it
 * (seedBank.ts, seedDays.ts). Every event goes in a **slot**: slot 2d holds the events of history day d (the log
 * before that day's close of business), slot 2d + 1 the month-end interest payments of day d (after its accrual).
 * A stream's events keep their order: an event's slot is the later of its own day's and the slot of the event before
 * it in its stream. Pure: no I/O, no clock.
 */
import { addDays, initialInterestRatesState, isLastDayOfMonth, ratesOn, type AccountKind } from '@bank/domain';

export const DAY_MS = 86_400_000;

/**
 * Days of a history: accounts open in its first 30 days and post for 335 more, an external transfer settles an
 * hour after it is sent (day 365 at the latest); the default history runs on to that month's end.
 */
export const HISTORY_DAYS_AT_LEAST = 366;

export interface SeedCalendar {
  /** Day 0 at midnight UTC (milliseconds). */
  readonly startMs: number;
  /** The calendar's first business date (day 0) and the last the generator closes. */
  readonly firstDate: string;
  readonly lastDate: string;
  readonly days: number;
  /** Slots of the whole history (two a day). */
  readonly slots: number;
  /** The history day of an instant (ISO text), day 0 for an instant before it (the generated admin's). */
  dayOf(at: string): number;
  /** The business date of a history day. */
  date(day: number): string;
  /** When the close of business of a day runs: the first instant of the next day. */
  cobInstant(day: number): string;
  /** The rates in force on a history day: the bank's defaults (the generated bank schedules no change). */
  rates(day: number): Readonly<Record<AccountKind, number>>;
  /** Whether a history day is its month's last (its close pays the month's interest). */
  isMonthEnd(day: number): boolean;
}

const DEFAULT_START = Date.UTC(2025, 0, 1);

/**
 * The calendar of a history that ends on `lastDate` (YYYY-MM-DD), 396 days long; by default the one that starts on
 * 1 January 2025 and ends with the month of its last possible event (31 January 2026), so every month is paid.
 */
export function seedCalendar(lastDate?: string): SeedCalendar {
  let last = lastDate;
  if (last === undefined) {
    last = new Date(DEFAULT_START + (HISTORY_DAYS_AT_LEAST - 1) * DAY_MS).toISOString().slice(0, 10);
    while (!isLastDayOfMonth(last)) last = addDays(last, 1);
  }
  const lastMs = Date.parse(`${last}T00:00:00.000Z`);
  if (Number.isNaN(lastMs)) throw new Error(`the history's last date must be YYYY-MM-DD, got ${JSON.stringify(lastDate)}`);
  const days = lastDate === undefined ? Math.round((lastMs - DEFAULT_START) / DAY_MS) + 1 : 396;
  const startMs = lastMs - (days - 1) * DAY_MS;
  // Computed once: every customer's interest reads them for every day of the history.
  const dateOf = (day: number): string => new Date(startMs + day * DAY_MS).toISOString().slice(0, 10);
  const dates = Array.from({ length: days }, (_, day) => dateOf(day));
  const date = (day: number): string => dates[day] ?? dateOf(day);
  const cobInstants = Array.from({ length: days }, (_, day) => new Date(startMs + (day + 1) * DAY_MS).toISOString());
  const monthEnds = dates.map(isLastDayOfMonth);
  const rates = dates.map((day) => ratesOn(initialInterestRatesState, day));
  return {
    startMs,
    firstDate: date(0),
    lastDate: last,
    days,
    slots: 2 * days,
    dayOf(at) {
      const day = Math.floor((Date.parse(at) - startMs) / DAY_MS);
      if (day >= days) throw new Error(`${at} is after the generated history's last business date ${last}`);
      return Math.max(0, day);
    },
    date,
    cobInstant: (day) => cobInstants[day] ?? new Date(startMs + (day + 1) * DAY_MS).toISOString(),
    rates: (day) => rates[day]!,
    isMonthEnd: (day) => monthEnds[day]!,
  };
}

/** The slot of the events of history day `day` (before its close of business). */
export const daySlot = (day: number): number => 2 * day;

/** The slot of day `day`'s month-end interest payments (after its accrual). */
export const paymentSlot = (day: number): number => 2 * day + 1;

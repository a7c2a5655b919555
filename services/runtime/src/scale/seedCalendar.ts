/**
 * The business calendar of a generated bank: its history is written day by day, as the bank would have recorded it
 * (seedBank.ts, seedDays.ts). Every event goes in a **slot**: slot 2d holds the events of history day d (the log
 * before that day's close of business), slot 2d + 1 the month-end interest payments of day d (after its accrual).
 * A stream's events keep their order: an event's slot is the later of its own day's and the slot of the event before
 * it in its stream. Pure: no I/O, no clock.
 */
import { addDays, isLastDayOfMonth } from '@bank/domain';
import { DAY_MS, HISTORY_START } from './seedTransfers';

/** The calendar's first business date (history day 0). */
export const HISTORY_FIRST_DATE = new Date(HISTORY_START).toISOString().slice(0, 10);

/**
 * The last business date the generator closes: the end of the month of the latest event a plan can hold (a posting
 * on day 364, an external transfer settled an hour after it), so every month of the history is paid and closed.
 */
export const HISTORY_LAST_DATE = (() => {
  let date = new Date(HISTORY_START + 365 * DAY_MS).toISOString().slice(0, 10);
  while (!isLastDayOfMonth(date)) date = addDays(date, 1);
  return date;
})();

/** History days, from HISTORY_FIRST_DATE to HISTORY_LAST_DATE inclusive. */
export const HISTORY_DAYS = Math.round((Date.parse(HISTORY_LAST_DATE) - HISTORY_START) / DAY_MS) + 1;

/** Slots of the whole history (two a day). */
export const HISTORY_SLOTS = 2 * HISTORY_DAYS;

/** The history day of an instant (ISO text), clamped to the history (the generated admin's day before counts as day 0). */
export function historyDayOf(at: string): number {
  const day = Math.floor((Date.parse(at) - HISTORY_START) / DAY_MS);
  if (day >= HISTORY_DAYS) throw new Error(`${at} is after the generated history's last business date ${HISTORY_LAST_DATE}`);
  return Math.max(0, day);
}

/** The business date of history day `day`. */
export function historyDate(day: number): string {
  return new Date(HISTORY_START + day * DAY_MS).toISOString().slice(0, 10);
}

/** The slot of the events of history day `day` (before its close of business). */
export const daySlot = (day: number): number => 2 * day;

/** The slot of day `day`'s month-end interest payments (after its accrual). */
export const paymentSlot = (day: number): number => 2 * day + 1;

/** When the close of business of `day` runs: the first instant of the next day. */
export function cobInstant(day: number): string {
  return new Date(HISTORY_START + (day + 1) * DAY_MS).toISOString();
}

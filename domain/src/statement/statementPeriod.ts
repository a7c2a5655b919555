import { isCalendarDate } from '../calendar';

/** The longest period one statement covers: a year, leap day included (STATEMENT_MAX_DAYS days, both bounds inclusive). */
export const STATEMENT_MAX_DAYS = 366;

const DAY_MS = 86_400_000;

/** A statement's period: whole UTC days, both bounds inclusive. */
export interface StatementPeriod {
  /** YYYY-MM-DD */
  readonly from: string;
  /** YYYY-MM-DD */
  readonly to: string;
  /** `from` at 00:00:00.000 UTC. */
  readonly start: Date;
  /** `to` at 23:59:59.999 UTC: the last instant of the period (the audit balances-at of the closing balance). */
  readonly end: Date;
}

export type PeriodProblem = { readonly field: 'from' | 'to'; readonly message: string };

/** The period of two YYYY-MM-DD dates, or the first problem with them. */
export function statementPeriod(from: string, to: string): StatementPeriod | PeriodProblem {
  if (!isCalendarDate(from)) return { field: 'from', message: 'from must be a date as YYYY-MM-DD, e.g. 2025-03-01' };
  if (!isCalendarDate(to)) return { field: 'to', message: 'to must be a date as YYYY-MM-DD, e.g. 2025-03-31' };
  const start = new Date(`${from}T00:00:00.000Z`);
  const end = new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS - 1);
  if (end.getTime() < start.getTime()) return { field: 'to', message: 'from must not be after to' };
  const days = Math.round((end.getTime() + 1 - start.getTime()) / DAY_MS);
  if (days > STATEMENT_MAX_DAYS) return { field: 'to', message: `A statement covers at most ${STATEMENT_MAX_DAYS} days` };
  return { from, to, start, end };
}

export function isPeriodProblem(value: StatementPeriod | PeriodProblem): value is PeriodProblem {
  return 'message' in value;
}

/** YYYY-MM-DD of an instant (UTC). */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The calendar month before the one `now` is in (UTC): the default statement. */
export function lastFullMonth(now: Date): { readonly from: string; readonly to: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: utcDay(first), to: utcDay(last) };
}

/** The whole calendar month of YYYY-MM. */
export function monthPeriod(month: string): { readonly from: string; readonly to: string } | undefined {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return undefined;
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  if (index < 0 || index > 11) return undefined;
  return { from: utcDay(new Date(Date.UTC(year, index, 1))), to: utcDay(new Date(Date.UTC(year, index + 1, 0))) };
}

import { lastFullMonth, monthPeriod } from '@bank/domain/statementPeriod';
import type { StatementAccount, StatementRequest } from './statementTypes';

/** What the picker holds: an account and either a calendar month or a custom range (YYYY-MM-DD, inclusive). */
export interface StatementChoice {
  readonly account: StatementAccount;
  readonly mode: 'month' | 'custom';
  /** YYYY-MM */
  readonly month: string;
  readonly from: string;
  readonly to: string;
}

export interface MonthOption {
  readonly value: string;
  readonly label: string;
}

const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The current month (so far) and the `count` − 1 before it, newest first. */
export function monthOptions(now: Date, count = 24): MonthOption[] {
  return Array.from({ length: count }, (_, index) => {
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - index, 1));
    const value = first.toISOString().slice(0, 7);
    return { value, label: index === 0 ? `${monthName.format(first)} (so far)` : monthName.format(first) };
  });
}

/** The default: the last full month, checking. */
export function initialChoice(now: Date, account: StatementAccount = 'checking'): StatementChoice {
  const { from, to } = lastFullMonth(now);
  return { account, mode: 'month', month: from.slice(0, 7), from, to };
}

/** The request of a choice; undefined while a custom range is incomplete or backwards. */
export function requestOf(choice: StatementChoice): StatementRequest | undefined {
  if (choice.mode === 'month') {
    const period = monthPeriod(choice.month);
    return period ? { account: choice.account, ...period } : undefined;
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(choice.from) || !/^\d{4}-\d{2}-\d{2}$/.test(choice.to) || choice.from > choice.to) return undefined;
  return { account: choice.account, from: choice.from, to: choice.to };
}

import type { Rate } from './interestTypes';

/**
 * A percent of the API (a JSON number with at most 4 decimals) with at least two decimals: 5 → '5.00%',
 * 4.125 → '4.125%'. Text only: no arithmetic on the figure.
 */
export function formatPercent(percent: number): string {
  const [whole = '0', fraction = ''] = String(percent).split('.');
  return `${whole}.${fraction.padEnd(2, '0')}%`;
}

/** The rates listed for `account`, oldest first (GET /rates lists no past rate: the first is the one in force). */
function ratesOf(rates: readonly Rate[], account: Rate['account']): Rate[] {
  return rates.filter((rate) => rate.account === account).sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom));
}

/** The rate of `account` in force now. */
export function rateInForce(rates: readonly Rate[], account: Rate['account']): Rate | undefined {
  return ratesOf(rates, account)[0];
}

/** The changes scheduled for `account`, soonest first. */
export function scheduledRates(rates: readonly Rate[], account: Rate['account']): Rate[] {
  return ratesOf(rates, account).slice(1);
}

export const ACCOUNT_LABELS = { savings: 'Savings', checking: 'Checking' } as const;

/** '2026-03' of a date → 'March 2026'. */
export function monthLabel(date: string): string {
  const [year, month] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

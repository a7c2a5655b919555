const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * Formats a dollar amount as US dollars: a JSON number of the API (at most two decimals), or an exact decimal string
 * ("-1250.50") for an amount summed in integer cents.
 */
export function formatMoney(dollars: number | `${number}`): string {
  return usd.format(dollars);
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}

const wholeUsd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** Formats a round dollar amount without cents, for marketing figures ("$250,000"). */
export function formatWholeDollars(dollars: number): string {
  return wholeUsd.format(dollars);
}

import type { LedgerEntryFilters } from './ledgerTypes';

/** Where the ledger screens live (inside the audit area: auditors and admins). */
export const LEDGER_PATH = '/audit/ledger';

/** "1 journal line", "2 journal lines". */
export function countOf(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The entries page of a ledger account, with its filters in the query string. */
export function ledgerEntriesPath(key: string, filters: LedgerEntryFilters = {}): string {
  const query = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
  return `${LEDGER_PATH}/accounts/${encodeURIComponent(key)}${query ? `?${query}` : ''}`;
}

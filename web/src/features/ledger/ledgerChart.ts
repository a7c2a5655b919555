import type { AccountKind } from '../../lib/api/types';

/**
 * What the screens need of the domain's chart of accounts: the staff accounts the admin's forms name, and the control
 * account of each customer account type (a customer's journal lines).
 * TODO(issue 27): read these from @bank/domain's chartOfAccounts / controlAccountKeyOf once "Domain: the books" is on
 * main, and drop the copies below.
 */
export const controlAccountKeyOf: Readonly<Record<AccountKind, string>> = { savings: 'customer-savings', checking: 'customer-checking' };

const names: Readonly<Record<string, string>> = { 'staff-adjustments': 'Staff adjustments', 'staff-postings': 'Staff postings' };

/** The chart's name of an account key ('staff-adjustments' → 'Staff adjustments'); the key itself when unknown. */
export function ledgerAccountName(key: string): string {
  return names[key] ?? key;
}

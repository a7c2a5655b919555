import type { AccountKind } from '../primitives';

/**
 * The bank's chart of accounts. The keys are fixed by the contract (API.md, "The ledger") and never change; codes
 * and names may be reworded, more accounts may follow. `balance` is debits − credits for assets and expenses,
 * credits − debits for the others.
 */
export const ledgerAccountKeys = [
  'cash-at-fed',
  'customer-savings',
  'customer-checking',
  'transfers-in-transit',
  'ach-outbound',
  'interest-payable',
  'staff-adjustments',
  'staff-postings',
  'interest-expense',
  'fee-income',
] as const;
export type LedgerAccountKey = (typeof ledgerAccountKeys)[number];
export type LedgerAccountType = 'asset' | 'liability' | 'equity' | 'income' | 'expense';
export type LedgerSide = 'debit' | 'credit';
/** control: the customers' balances are its subledger; clearing: money of flows half done, netting to zero. */
export type LedgerAccountRole = 'control' | 'clearing' | 'general';

export interface LedgerAccount {
  readonly key: LedgerAccountKey;
  readonly code: string;
  readonly name: string;
  readonly type: LedgerAccountType;
  readonly normalSide: LedgerSide;
  readonly role: LedgerAccountRole;
}

function account(key: LedgerAccountKey, code: string, name: string, type: LedgerAccountType, role: LedgerAccountRole = 'general'): LedgerAccount {
  const normalSide: LedgerSide = type === 'asset' || type === 'expense' ? 'debit' : 'credit';
  return Object.freeze({ key, code, name, type, normalSide, role });
}

/** Every account, in code order. */
export const chartOfAccounts: readonly LedgerAccount[] = Object.freeze([
  account('cash-at-fed', '1000', 'Cash at the Federal Reserve', 'asset'),
  account('customer-savings', '2000', 'Customer savings', 'liability', 'control'),
  account('customer-checking', '2010', 'Customer checking', 'liability', 'control'),
  account('transfers-in-transit', '2100', 'Transfers in transit', 'liability', 'clearing'),
  account('ach-outbound', '2110', 'ACH outbound', 'liability', 'clearing'),
  account('interest-payable', '2200', 'Interest payable', 'liability'),
  account('staff-adjustments', '3000', 'Staff balance adjustments', 'equity'),
  account('staff-postings', '3010', 'Staff postings', 'equity'),
  account('fee-income', '4000', 'Fee income', 'income'),
  account('interest-expense', '5000', 'Interest expense', 'expense'),
]);

const byKey: ReadonlyMap<string, LedgerAccount> = new Map(chartOfAccounts.map((entry) => [entry.key, entry]));

export function ledgerAccountOf(key: string): LedgerAccount | undefined {
  return byKey.get(key);
}

export function isLedgerAccountKey(key: string): key is LedgerAccountKey {
  return byKey.has(key);
}

/** The liability control account whose subledger is each customer's balance of that kind. */
export const controlAccountKeyOf: Readonly<Record<AccountKind, LedgerAccountKey>> = Object.freeze({
  savings: 'customer-savings',
  checking: 'customer-checking',
});

export const controlAccountKeys: readonly LedgerAccountKey[] = Object.freeze(chartOfAccounts.filter((a) => a.role === 'control').map((a) => a.key));
export const clearingAccountKeys: readonly LedgerAccountKey[] = Object.freeze(chartOfAccounts.filter((a) => a.role === 'clearing').map((a) => a.key));

/** The account's balance on its normal side: debits − credits for assets and expenses, credits − debits otherwise. */
export function ledgerBalance(account: LedgerAccount, debits: bigint, credits: bigint): bigint {
  return account.normalSide === 'debit' ? debits - credits : credits - debits;
}

import type { LedgerAccountKey, LedgerAccountType } from './chartOfAccounts';
import { chartOfAccounts, ledgerBalance } from './chartOfAccounts';
import type { JournalEntry } from './postingRules';

/** Sums of an account's lines, in cents. bigint: a bank's totals outgrow 2^53 cents. */
export interface AccountTotals {
  debitsCents: bigint;
  creditsCents: bigint;
}

export type LedgerTotals = Map<LedgerAccountKey, AccountTotals>;

/** Every account of the chart at zero. */
export function emptyLedgerTotals(): LedgerTotals {
  return new Map(chartOfAccounts.map((account) => [account.key, { debitsCents: 0n, creditsCents: 0n }]));
}

/** Adds an entry's lines to the totals (in place). */
export function addEntryToTotals(totals: LedgerTotals, entry: JournalEntry): void {
  for (const line of entry.lines) {
    let account = totals.get(line.accountKey);
    if (!account) {
      account = { debitsCents: 0n, creditsCents: 0n };
      totals.set(line.accountKey, account);
    }
    if (line.side === 'debit') account.debitsCents += BigInt(line.amountCents);
    else account.creditsCents += BigInt(line.amountCents);
  }
}

export interface TrialBalanceRow {
  readonly key: LedgerAccountKey;
  readonly code: string;
  readonly name: string;
  readonly type: LedgerAccountType;
  readonly debitsCents: bigint;
  readonly creditsCents: bigint;
  readonly balanceCents: bigint;
}

export interface TrialBalance {
  readonly rows: readonly TrialBalanceRow[];
  readonly totalDebitsCents: bigint;
  readonly totalCreditsCents: bigint;
  readonly balanced: boolean;
}

/** The trial balance of some totals: every account of the chart in code order (missing ones at zero). */
export function trialBalanceOf(totals: ReadonlyMap<string, AccountTotals>): TrialBalance {
  let totalDebitsCents = 0n;
  let totalCreditsCents = 0n;
  const rows = chartOfAccounts.map((account): TrialBalanceRow => {
    const { debitsCents, creditsCents } = totals.get(account.key) ?? { debitsCents: 0n, creditsCents: 0n };
    totalDebitsCents += debitsCents;
    totalCreditsCents += creditsCents;
    const { key, code, name, type } = account;
    return { key, code, name, type, debitsCents, creditsCents, balanceCents: ledgerBalance(account, debitsCents, creditsCents) };
  });
  return { rows, totalDebitsCents, totalCreditsCents, balanced: totalDebitsCents === totalCreditsCents };
}

/** Totals as stored in a day close: decimal strings of cents per account. */
export interface StoredAccountTotals {
  readonly key: string;
  readonly debitsCents: string;
  readonly creditsCents: string;
}

export function totalsToStored(totals: ReadonlyMap<string, AccountTotals>): StoredAccountTotals[] {
  return chartOfAccounts.map((account) => {
    const { debitsCents, creditsCents } = totals.get(account.key) ?? { debitsCents: 0n, creditsCents: 0n };
    return { key: account.key, debitsCents: debitsCents.toString(), creditsCents: creditsCents.toString() };
  });
}

export function totalsFromStored(stored: readonly StoredAccountTotals[]): LedgerTotals {
  const totals = emptyLedgerTotals();
  for (const row of stored) totals.set(row.key as LedgerAccountKey, { debitsCents: BigInt(row.debitsCents), creditsCents: BigInt(row.creditsCents) });
  return totals;
}

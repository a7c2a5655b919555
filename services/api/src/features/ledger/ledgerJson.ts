import { bigCentsToDollars, type TrialBalance, type TrialBalanceRow } from '@bank/domain';

/** One account of the chart with its totals, as GET /audit/ledger/accounts and the trial balance answer it (dollars). */
export interface LedgerAccountJson {
  readonly key: string;
  readonly code: string;
  readonly name: string;
  readonly type: TrialBalanceRow['type'];
  readonly debits: number;
  readonly credits: number;
  readonly balance: number;
}

/** GET /audit/ledger/trial-balance */
export interface TrialBalanceJson {
  /** The instant the trial balance is of (ISO). */
  readonly at: string;
  readonly accounts: readonly LedgerAccountJson[];
  readonly totalDebits: number;
  readonly totalCredits: number;
  readonly balanced: boolean;
}

export function ledgerAccountJson(row: TrialBalanceRow): LedgerAccountJson {
  return {
    key: row.key,
    code: row.code,
    name: row.name,
    type: row.type,
    debits: bigCentsToDollars(row.debitsCents),
    credits: bigCentsToDollars(row.creditsCents),
    balance: bigCentsToDollars(row.balanceCents),
  };
}

export function trialBalanceJson(at: Date, trialBalance: TrialBalance): TrialBalanceJson {
  return {
    at: at.toISOString(),
    accounts: trialBalance.rows.map(ledgerAccountJson),
    totalDebits: bigCentsToDollars(trialBalance.totalDebitsCents),
    totalCredits: bigCentsToDollars(trialBalance.totalCreditsCents),
    balanced: trialBalance.balanced,
  };
}

/**
 * Shapes of the ledger and business-date routes (shared/design/API.md, "The ledger" and "Business date and close of
 * business"). Money is in dollars: display only, never added or subtracted here as floating point.
 */

export type LedgerAccountTypeName = 'asset' | 'liability' | 'equity' | 'income' | 'expense';

/** A row of GET /audit/ledger/accounts and of the trial balance. */
export interface LedgerAccountRow {
  key: string;
  code: string;
  name: string;
  type: LedgerAccountTypeName;
  debits: number;
  credits: number;
  balance: number;
}

/** GET /audit/ledger/trial-balance?at= */
export interface TrialBalance {
  at: string;
  accounts: LedgerAccountRow[];
  totalDebits: number;
  totalCredits: number;
  balanced: boolean;
}

/** A journal line of GET /audit/ledger/accounts/:key/entries. */
export interface LedgerEntry {
  position: string;
  eventId: string;
  at: string;
  businessDate: string;
  side: 'debit' | 'credit';
  amount: number;
  customerId?: string;
  account?: 'savings' | 'checking';
  transferId?: string;
  actorId?: string;
  description: string;
}

/** The filters of an account's entries (dates YYYY-MM-DD), as the URL and the API carry them. */
export interface LedgerEntryFilters {
  from?: string;
  to?: string;
  customerId?: string;
}

export interface ControlReconciliation {
  key: string;
  balance: number;
  subledgerTotal: number;
  difference: number;
}

export interface OpenClearingItem {
  transferId: string;
  amount: number;
  since: string;
}

export interface ClearingReconciliation {
  key: string;
  balance: number;
  openItems: OpenClearingItem[];
}

/** GET /audit/ledger/reconciliation */
export interface Reconciliation {
  ok: boolean;
  controls: ControlReconciliation[];
  clearing: ClearingReconciliation[];
}

/** A day close of GET /audit/ledger/days. */
export interface DayClose {
  businessDate: string;
  closedAt: string;
  totalDebits: number;
  totalCredits: number;
  balanced: boolean;
  journalHash: string;
}

export type BusinessDateMode = 'calendar' | 'manual';

/** GET /admin/business-date */
export interface BusinessDate {
  businessDate: string;
  mode: BusinessDateMode;
  lastClosedDate: string | null;
}

/** POST /admin/business-date/advance */
export interface BusinessDateAdvance {
  businessDate: string;
  closed: string[];
}

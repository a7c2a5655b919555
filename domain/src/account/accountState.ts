import type { TransactionStatus } from '../events/accountEvents';
import type { AccountKind, Balances, Direction } from '../primitives';

/** What produced a transaction. */
export type TransactionKind = 'transfer_debit' | 'transfer_credit' | 'refund' | 'adjustment' | 'staff' | 'reversal';

export interface TransactionRecord {
  readonly transactionId: string;
  readonly kind: TransactionKind;
  readonly account: AccountKind;
  readonly direction: Direction;
  readonly amountCents: number;
  readonly description: string;
  readonly status: TransactionStatus;
  /** When it happened (for staff postings: the date the admin gave). */
  readonly occurredAt: string;
  readonly balanceAfterCents: number;
  readonly transferId: string | null;
  /** Id of the reversal that undid this transaction, if any. */
  readonly reversedBy: string | null;
  /** For a reversal: the transaction it undid. */
  readonly reverses: string | null;
  /** For staff actions: the admin. */
  readonly adminId: string | null;
}

export interface OpenAccountState {
  readonly status: 'open' | 'closed';
  readonly userId: string;
  /** The number at opening (the current number lives on the customer stream). */
  readonly accountNumber: string;
  /** Integer cents. Never negative. */
  readonly balances: Balances;
  /** By transactionId, in the order recorded. */
  readonly transactions: Readonly<Record<string, TransactionRecord>>;
}

export type AccountState = { readonly status: 'unopened' } | OpenAccountState;

export const initialAccountState: AccountState = { status: 'unopened' };

/** The balance of one account kind, 0 before opening. */
export function balanceOf(state: AccountState, account: AccountKind): number {
  return state.status === 'unopened' ? 0 : state.balances[account];
}

/** The transactions in the order they were recorded. */
export function transactionsOf(state: AccountState): TransactionRecord[] {
  return state.status === 'unopened' ? [] : Object.values(state.transactions);
}

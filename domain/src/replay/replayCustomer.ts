import type { AccountHistory, TransactionRecord } from '../account/accountHistory';
import { emptyAccountHistory, evolveAccountHistory } from '../account/accountHistory';
import { isAccountEvent } from '../account/accountDecider';
import { evolveCustomer, isCustomerEvent } from '../customer/customerDecider';
import type { CustomerState } from '../customer/customerState';
import { initialCustomerState } from '../customer/customerState';
import { parseEvent } from '../events/eventSchemas';
import { centsToDollars } from '../money';
import type { BankEvent } from '../events/eventSchemas';

/** A stored event as the auditors read it: type, data and (optionally) the store's time and schema version. */
export interface StoredEvent {
  readonly type: string;
  readonly data: unknown;
  readonly createdAt?: Date | string | undefined;
  readonly schemaVersion?: number | undefined;
}

/** A transaction as listed to auditors and customers; a reversed transaction shows status 'reversed'. */
export interface TransactionView extends Omit<TransactionRecord, 'status'> {
  readonly status: 'completed' | 'pending' | 'failed' | 'reversed';
}

export interface CustomerReplay {
  readonly customer: CustomerState;
  readonly account: AccountHistory;
  readonly balances: { readonly savingsCents: number; readonly checkingCents: number };
  /** In the order recorded. */
  readonly transactions: TransactionView[];
  /** How many events were applied (those at or before `at`). */
  readonly applied: number;
}

/**
 * The auditors' fold of one user's two streams (customer-<id>, account-<id>). The account's history grows in place
 * (a replay is linear in the number of events), so start every replay from `newCustomerLedger()`.
 */
export interface CustomerLedgerState {
  readonly customer: CustomerState;
  readonly account: AccountHistory;
}

export function newCustomerLedger(): CustomerLedgerState {
  return { customer: initialCustomerState, account: emptyAccountHistory() };
}

/** Fold step over customer and account events; events of other streams leave the state unchanged. */
export function evolveCustomerLedger(state: CustomerLedgerState, event: BankEvent): CustomerLedgerState {
  if (isCustomerEvent(event)) return { customer: evolveCustomer(state.customer, event), account: state.account };
  if (isAccountEvent(event)) {
    evolveAccountHistory(state.account, event);
    return state;
  }
  return state;
}

function viewOf(record: TransactionRecord): TransactionView {
  return { ...record, status: record.reversedBy === null ? record.status : 'reversed' };
}

/** The transactions of an account's history, reversed ones shown as 'reversed' (copies: the history may grow on). */
export function transactionViews(account: AccountHistory): TransactionView[] {
  return [...account.transactions.values()].map(viewOf);
}

/** The newest `limit` transactions of an account's history, newest first (only those are copied). */
export function newestTransactionViews(account: AccountHistory, limit: number): TransactionView[] {
  const records = [...account.transactions.values()];
  return records.slice(Math.max(0, records.length - limit)).reverse().map(viewOf);
}

function timeOf(createdAt: Date | string): number {
  return createdAt instanceof Date ? createdAt.getTime() : new Date(createdAt).getTime();
}

/** Validates stored events (parseEvent) and folds them; an event with createdAt after `at` is skipped. */
export function replayCustomerLedger(events: Iterable<StoredEvent>, at?: Date, from: CustomerLedgerState = newCustomerLedger()): { state: CustomerLedgerState; applied: number } {
  const limit = at?.getTime();
  let state = from;
  let applied = 0;
  for (const stored of events) {
    if (limit !== undefined && stored.createdAt !== undefined && timeOf(stored.createdAt) > limit) continue;
    state = evolveCustomerLedger(state, parseEvent(stored.type, stored.data, stored.schemaVersion));
    applied += 1;
  }
  return { state, applied };
}

/**
 * Auditors' replay of one user: the events of `customer-<id>` and `account-<id>` (oldest first; other streams'
 * events are ignored) → the customer, balances in cents and transactions as they stood at `at` (default: now,
 * i.e. all events). Events without createdAt are always applied. Throws EventParseError on invalid stored data.
 */
export function replayCustomer(events: Iterable<StoredEvent>, at?: Date): CustomerReplay {
  const { state, applied } = replayCustomerLedger(events, at);
  const { customer, account } = state;
  const balances =
    account.status === 'unopened' ? { savingsCents: 0, checkingCents: 0 } : { savingsCents: account.balances.savings, checkingCents: account.balances.checking };
  return { customer, account, balances, transactions: transactionViews(account), applied };
}

/** A transaction in the API's JSON shape (API.md "Transaction"): amounts in dollars, exact. */
export interface TransactionJson {
  readonly _id: string;
  readonly amount: number;
  readonly transactionType: 'credit' | 'debit';
  readonly date: string;
  readonly description: string;
  readonly account: 'savings' | 'checking';
  readonly status: TransactionView['status'];
  readonly balanceAfter: number;
  readonly transferId?: string;
}

export function transactionJson(view: TransactionView): TransactionJson {
  return {
    _id: view.transactionId,
    amount: centsToDollars(view.amountCents),
    transactionType: view.direction,
    date: view.occurredAt,
    description: view.description,
    account: view.account,
    status: view.status,
    balanceAfter: centsToDollars(view.balanceAfterCents),
    ...(view.transferId === null ? {} : { transferId: view.transferId }),
  };
}

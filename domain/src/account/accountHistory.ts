import { assertNever } from '../decider';
import type { TransactionStatus } from '../events/accountEvents';
import type { AccountKind, Direction } from '../primitives';
import type { AccountEvent, MoneyEvent } from './accountDecider';
import { signedAmount } from './accountDecider';
import { transactionKindOf, type TransactionKind } from './transactionKind';

/** One transaction as the auditors' replay knows it. */
export interface TransactionRecord {
  readonly transactionId: string;
  readonly kind: TransactionKind;
  readonly account: AccountKind;
  readonly direction: Direction;
  readonly amountCents: number;
  readonly description: string;
  status: TransactionStatus;
  /** When it happened (for staff postings: the date the admin gave). */
  readonly occurredAt: string;
  readonly balanceAfterCents: number;
  readonly transferId: string | null;
  /** Id of the reversal that undid this transaction, if any. */
  reversedBy: string | null;
  /** For a reversal: the transaction it undid. */
  readonly reverses: string | null;
  /** For staff actions: the admin. */
  readonly adminId: string | null;
}

/**
 * The auditors' fold of `account-<userId>`: balances and every transaction with its details, in the order recorded.
 * Never used to decide (see accountState.ts); it grows in place, so a replay is linear in the stream's length.
 */
export interface AccountHistory {
  status: 'unopened' | 'open' | 'closed';
  readonly balances: { savings: number; checking: number };
  /** By transactionId, in the order recorded. */
  readonly transactions: Map<string, TransactionRecord>;
}

export function emptyAccountHistory(): AccountHistory {
  return { status: 'unopened', balances: { savings: 0, checking: 0 }, transactions: new Map() };
}

function recordOf(event: MoneyEvent): TransactionRecord {
  const { data } = event;
  return {
    transactionId: data.transactionId,
    kind: transactionKindOf(event),
    account: data.account,
    direction: data.direction,
    amountCents: data.amountCents,
    description: data.description,
    status: data.status,
    occurredAt: data.occurredAt,
    balanceAfterCents: data.balanceAfterCents,
    transferId: data.transferId ?? null,
    reversedBy: null,
    reverses: event.type === 'TransactionReversed' ? event.data.reversedTransactionId : null,
    adminId: 'adminId' in data ? data.adminId : null,
  };
}

/** Folds one account event into `history` (in place) and returns it. */
export function evolveAccountHistory(history: AccountHistory, event: AccountEvent): AccountHistory {
  switch (event.type) {
    case 'AccountOpened':
      history.status = 'open';
      return history;
    case 'AccountCredited':
    case 'AccountDebited':
    case 'BalanceAdjusted':
    case 'StaffTransactionPosted':
    case 'TransactionReversed': {
      if (history.status === 'unopened') return history;
      const record = recordOf(event);
      history.transactions.set(record.transactionId, record);
      if (event.type === 'TransactionReversed') {
        const original = history.transactions.get(event.data.reversedTransactionId);
        if (original) original.reversedBy = record.transactionId;
      }
      history.balances[record.account] += signedAmount(event);
      return history;
    }
    case 'TransactionStatusChanged': {
      const record = history.transactions.get(event.data.transactionId);
      if (record) record.status = event.data.status;
      return history;
    }
    case 'AccountClosed':
      if (history.status !== 'unopened') history.status = 'closed';
      return history;
    default:
      return assertNever(event);
  }
}

/** The transactions in the order they were recorded. */
export function transactionsOf(history: AccountHistory): TransactionRecord[] {
  return [...history.transactions.values()];
}

/**
 * Drops the transaction records kept so far; the balances stay. For readers that only go forward (a statement reads
 * a stream of any length with bounded memory): balances move by money events alone, so later status changes and
 * reversals of forgotten transactions still fold to the same balances (they just find no record to annotate).
 */
export function forgetTransactions(history: AccountHistory): void {
  history.transactions.clear();
}

/**
 * Drops all but the newest `keep` transaction records and returns how many it dropped. For readers that want the
 * balances and only the newest transactions of a stream of any length: a transaction that a later event annotates
 * (a status change, a reversal) is still kept whenever it ends up among the newest `keep`, since fewer than `keep`
 * records are ever added after it.
 */
export function forgetOlderTransactions(history: AccountHistory, keep: number): number {
  let dropped = 0;
  for (const id of history.transactions.keys()) {
    if (history.transactions.size <= keep) break;
    history.transactions.delete(id);
    dropped += 1;
  }
  return dropped;
}

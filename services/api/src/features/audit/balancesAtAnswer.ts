import {
  centsToDollars,
  EventParseError,
  newestTransactionViews,
  transactionJson,
  type CustomerLedgerState,
  type TransactionJson,
  type TransactionView,
} from '@bank/domain';

/** A transaction as the API shows it (dollars), with what produced it. */
export interface AuditTransaction extends TransactionJson {
  readonly kind: TransactionView['kind'];
  readonly adminId?: string;
}

/** GET /audit/users/:id/balances?at= */
export interface BalancesAt {
  readonly userId: string;
  readonly at: string;
  readonly savings: number;
  readonly checking: number;
  /** The newest ones (at most the `newest` asked for), newest first, as they stood at `at`. */
  readonly transactions: AuditTransaction[];
  /** How many transactions the account held at `at`. */
  readonly transactionsTotal: number;
  /** How many of the customer's events happened at or before `at`. */
  readonly events: number;
}

export class ReplayError extends Error {
  override readonly name = 'ReplayError';
}

function toAuditTransaction(view: TransactionView): AuditTransaction {
  return { ...transactionJson(view), kind: view.kind, ...(view.adminId ? { adminId: view.adminId } : {}) };
}

/** Runs a replay, a stored event that does not fit its schema becoming a ReplayError. */
export function replaying<T>(replay: () => T): T {
  try {
    return replay();
  } catch (error) {
    if (error instanceof EventParseError) {
      throw new ReplayError(`The record of this customer cannot be replayed: ${error.message}. Run the verification (GET /audit/verify).`);
    }
    throw error;
  }
}

/**
 * The answer from a folded state: the balances (zero while the account is unopened), the newest `newest`
 * transaction records the state still holds, and the counts.
 */
export function balancesAtAnswer(
  userId: string,
  at: Date,
  state: CustomerLedgerState,
  counts: { readonly newest: number; readonly transactionsTotal: number; readonly events: number },
): BalancesAt {
  const { account } = state;
  const opened = account.status !== 'unopened';
  return {
    userId,
    at: at.toISOString(),
    savings: centsToDollars(opened ? account.balances.savings : 0),
    checking: centsToDollars(opened ? account.balances.checking : 0),
    transactions: newestTransactionViews(account, counts.newest).map(toAuditTransaction),
    transactionsTotal: counts.transactionsTotal,
    events: counts.events,
  };
}

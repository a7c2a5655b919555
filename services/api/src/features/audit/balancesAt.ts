import {
  centsToDollars,
  EventParseError,
  forgetOlderTransactions,
  newestTransactionViews,
  replayCustomer,
  replayCustomerLedger,
  streams,
  transactionJson,
  type CustomerLedgerState,
  type CustomerReplay,
  type TransactionJson,
  type TransactionView,
} from '@bank/domain';
import type { EventStore, RecordedEvent } from '@bank/eventstore';
import { toStoredEvent } from './storedEvent';
import { streamPages, type StreamPageOptions } from './streamPages';

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

/**
 * Replays a customer's two streams with the domain as they stood at `at`. An event counts from the instant its
 * metadata records (`occurredAt`, covered by the hash chain), not from the table's own time column.
 * Throws ReplayError when a stored event does not fit its schema.
 */
export function replayAt(userId: string, events: readonly RecordedEvent[], at: Date): CustomerReplay {
  const own = new Set([streams.customer(userId), streams.account(userId)]);
  return replaying(() => replayCustomer(events.filter((event) => own.has(event.streamId)).map(toStoredEvent), at));
}

function replaying<T>(replay: () => T): T {
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
 * Events per read of a balances-at replay: small pages keep what is alive between two collections small (with the
 * bank's 64 MB young generation, docs/operations.md), and the read-ahead hides the extra round trips.
 */
export const BALANCES_PAGE_SIZE = 1_000;

export interface BalancesAtOptions extends Pick<StreamPageOptions, 'pageSize' | 'onPage'> {
  /** How many of the newest transactions the answer lists (default 200). */
  readonly newest?: number;
}

/**
 * Reads and replays a customer's two streams as they stood at `at`; undefined when the store holds nothing of that
 * customer. The account stream is read in pages and folded as they arrive (the next page is read meanwhile), so a
 * merchant's 100,000 transactions are never all in memory, as stored events or as records: only the newest `newest`
 * are kept, and only they become answers.
 */
export async function balancesAt(store: EventStore, userId: string, at: Date, options: BalancesAtOptions = {}): Promise<BalancesAt | undefined> {
  const pages = { pageSize: options.pageSize ?? BALANCES_PAGE_SIZE, ...(options.onPage ? { onPage: options.onPage } : {}) };
  let state: CustomerLedgerState | undefined;
  let applied = 0;
  let events = 0;
  let forgotten = 0;
  const newest = options.newest ?? 200;
  for (const stream of [streams.customer(userId), streams.account(userId)]) {
    for await (const page of streamPages(store, stream, { ...pages, readAhead: true })) {
      events += page.length;
      const folded = replaying(() => replayCustomerLedger(page.map(toStoredEvent), at, state));
      state = folded.state;
      applied += folded.applied;
      // Only the newest are answered: older records go, so memory and the collector's work stay at a page's size.
      forgotten += forgetOlderTransactions(state.account, newest);
    }
  }
  if (!state || events === 0) return undefined;
  const { account } = state;
  const opened = account.status !== 'unopened';
  return {
    userId,
    at: at.toISOString(),
    savings: centsToDollars(opened ? account.balances.savings : 0),
    checking: centsToDollars(opened ? account.balances.checking : 0),
    transactions: newestTransactionViews(account, newest).map(toAuditTransaction),
    transactionsTotal: forgotten + account.transactions.size,
    events: applied,
  };
}

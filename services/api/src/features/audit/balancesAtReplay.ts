import { forgetOlderTransactions, replayCustomer, replayCustomerLedger, streams, type CustomerLedgerState, type CustomerReplay } from '@bank/domain';
import type { EventStore, RecordedEvent } from '@bank/eventstore';
import { balancesAtAnswer, replaying, type BalancesAt } from './balancesAtAnswer';
import { toStoredEvent } from './storedEvent';
import { streamPages, type StreamPageOptions } from './streamPages';

/**
 * Replays a customer's two streams with the domain as they stood at `at`. An event counts from the instant its
 * metadata records (`occurredAt`, covered by the hash chain), not from the table's own time column.
 * Throws ReplayError when a stored event does not fit its schema.
 */
export function replayAt(userId: string, events: readonly RecordedEvent[], at: Date): CustomerReplay {
  const own = new Set([streams.customer(userId), streams.account(userId)]);
  return replaying(() => replayCustomer(events.filter((event) => own.has(event.streamId)).map(toStoredEvent), at));
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
 * The whole replay: reads and folds a customer's two streams as they stood at `at`, every event of both; undefined
 * when the store holds nothing of that customer. The account stream is read in pages and folded as they arrive (the
 * next page is read meanwhile), so a merchant's 100,000 transactions are never all in memory, as stored events or as
 * records: only the newest `newest` are kept, and only they become answers.
 */
export async function replayBalancesAt(store: EventStore, userId: string, at: Date, options: BalancesAtOptions = {}): Promise<BalancesAt | undefined> {
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
  return balancesAtAnswer(userId, at, state, { newest, transactionsTotal: forgotten + state.account.transactions.size, events: applied });
}

import type { EventStore } from '@bank/eventstore';
import type { BalancesAt } from './balancesAtAnswer';
import { boundedBalancesAt, isIndexedEventStore, REPLAY_INSTEAD } from './balancesAtBounded';
import { replayBalancesAt, type BalancesAtOptions } from './balancesAtReplay';

export { ReplayError, type AuditTransaction, type BalancesAt } from './balancesAtAnswer';
export { BALANCES_PAGE_SIZE, replayAt, replayBalancesAt, type BalancesAtOptions } from './balancesAtReplay';

/**
 * GET /audit/users/:id/balances?at=: the customer's balances and newest transactions as they stood at `at`;
 * undefined when the store holds nothing of that customer. On a store that counts and finds a stream's events from
 * its own index (PostgreSQL), a bounded read of the account stream (balancesAtBounded.ts), whatever the history's
 * length; elsewhere, or when that read finds the stream out of its assumptions, the whole replay. Both answer the same.
 */
export async function balancesAt(store: EventStore, userId: string, at: Date, options: BalancesAtOptions = {}): Promise<BalancesAt | undefined> {
  if (isIndexedEventStore(store)) {
    const bounded = await boundedBalancesAt(store, userId, at, options);
    if (bounded !== REPLAY_INSTEAD) return bounded;
  }
  return replayBalancesAt(store, userId, at, options);
}

import { centsToDollars, EventParseError, replayCustomer, streams, transactionJson, type CustomerReplay, type TransactionJson, type TransactionView } from '@bank/domain';
import type { EventStore, RecordedEvent } from '@bank/eventstore';
import { eventTime } from './customerHistory';

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
  /** Newest first, as they stood at `at`. */
  readonly transactions: AuditTransaction[];
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
  try {
    return replayCustomer(
      events
        .filter((event) => own.has(event.streamId))
        .map((event) => ({
          type: event.type,
          data: event.data,
          createdAt: eventTime(event),
          schemaVersion: typeof event.metadata.schemaVersion === 'number' ? event.metadata.schemaVersion : undefined,
        })),
      at,
    );
  } catch (error) {
    if (error instanceof EventParseError) {
      throw new ReplayError(`The record of this customer cannot be replayed: ${error.message}. Run the verification (GET /audit/verify).`);
    }
    throw error;
  }
}

/** The API's view of a replay (dollars, transactions newest first). */
export function toBalancesAt(userId: string, at: Date, replay: CustomerReplay): BalancesAt {
  return {
    userId,
    at: at.toISOString(),
    savings: centsToDollars(replay.balances.savingsCents),
    checking: centsToDollars(replay.balances.checkingCents),
    transactions: replay.transactions.map(toAuditTransaction).reverse(),
    events: replay.applied,
  };
}

/** Reads and replays; undefined when the store holds nothing of that customer. */
export async function balancesAt(store: EventStore, userId: string, at: Date): Promise<BalancesAt | undefined> {
  const [customer, account] = await Promise.all([store.readStream(streams.customer(userId)), store.readStream(streams.account(userId))]);
  if (customer.length === 0 && account.length === 0) return undefined;
  return toBalancesAt(userId, at, replayAt(userId, [...customer, ...account], at));
}

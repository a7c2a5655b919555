import { streams } from '@bank/domain';
import { comparePositions, type EventStore, type RecordedEvent } from '@bank/eventstore';

/** A customer's stored record, read straight from the event store (never from the read models). */
export interface CustomerHistory {
  readonly userId: string;
  /**
   * Every event of customer-<id>, account-<id>, the transfer streams the customer took part in and the standing
   * orders that paid from the account, in global order.
   */
  readonly events: readonly RecordedEvent[];
  readonly streams: readonly string[];
}

/** The transfer ids an event names (money events of a transfer carry `transferId`). */
function transferIdOf(event: RecordedEvent): string | undefined {
  const id = event.data.transferId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The standing order a payment came from (its debit's metadata names it). */
function standingOrderIdOf(event: RecordedEvent): string | undefined {
  const id = event.metadata.standingOrderId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** How many transfer streams are read at once: a merchant's history names tens of thousands of them. */
const TRANSFER_READS_IN_FLIGHT = 16;

export interface HistoryProgress {
  /** Transfer and standing-order streams read so far, of `total`. */
  readonly done: number;
  readonly total: number;
}

export interface LoadHistoryOptions {
  /** Called after each group of transfer streams read (the long part for a customer with many payments). */
  readonly onProgress?: (progress: HistoryProgress) => void;
}

/**
 * Reads a customer's streams. The transfer streams are found through the customer's own account stream: every
 * leg of a transfer that touched the customer's money carries its transfer id; so are the standing orders, through
 * the debits of their payments (an order that has not paid yet is not part of the money's record).
 * Returns undefined when the store holds no event of that customer.
 */
export async function loadCustomerHistory(store: EventStore, userId: string, options: LoadHistoryOptions = {}): Promise<CustomerHistory | undefined> {
  const customerStream = streams.customer(userId);
  const accountStream = streams.account(userId);
  const [customer, account] = await Promise.all([store.readStream(customerStream), store.readStream(accountStream)]);
  if (customer.length === 0 && account.length === 0) return undefined;
  const transferIds = [...new Set(account.map(transferIdOf).filter((id): id is string => id !== undefined))];
  const transferStreams = transferIds.map((id) => streams.transfer(id));
  const orderStreams = [...new Set(account.map(standingOrderIdOf).filter((id): id is string => id !== undefined))].map((id) => streams.standingOrder(id));
  const others = [...transferStreams, ...orderStreams];
  // A bounded number of reads in flight, so a long history neither floods the pool nor waits on one read at a time.
  const read: RecordedEvent[] = [];
  options.onProgress?.({ done: 0, total: others.length });
  for (let start = 0; start < others.length; start += TRANSFER_READS_IN_FLIGHT) {
    const group = others.slice(start, start + TRANSFER_READS_IN_FLIGHT);
    for (const events of await Promise.all(group.map((stream) => store.readStream(stream)))) read.push(...events);
    options.onProgress?.({ done: start + group.length, total: others.length });
  }
  const events = [...customer, ...account, ...read].sort((a, b) => comparePositions(a.position, b.position));
  return { userId, events, streams: [customerStream, accountStream, ...others] };
}

/** The instant an event happened: the time the service stamped in its metadata, else the store's own time. */
export function eventTime(event: RecordedEvent): string {
  const at = event.metadata.occurredAt;
  return typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? new Date(at).toISOString() : event.created.toISOString();
}

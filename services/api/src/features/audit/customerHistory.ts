import { streams } from '@bank/domain';
import { comparePositions, type EventStore, type RecordedEvent } from '@bank/eventstore';
import type { StandingOrderDiscovery } from './customerStandingOrders';

/** A customer's stored record, read straight from the event store (never from the read models). */
export interface CustomerHistory {
  readonly userId: string;
  /**
   * Every event of customer-<id>, account-<id>, the transfer streams the customer took part in and the customer's
   * standing orders (those that paid from the account and those `standingOrders` finds), in global order.
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
  /**
   * The customer's standing orders beyond those their payments name (an order never paid, cancelled before its
   * first date): their streams are read too, those whose StandingOrderCreated names this customer as the payer.
   */
  readonly standingOrders?: StandingOrderDiscovery;
}

/** Whether a standing-order stream is the customer's: its StandingOrderCreated names them as the payer. */
function paidBy(events: readonly RecordedEvent[], userId: string): boolean {
  const created = events.find((event) => event.type === 'StandingOrderCreated');
  return created !== undefined && created.data.payerId === userId;
}

/**
 * Reads a customer's streams. The transfer streams are found through the customer's own account stream: every
 * leg of a transfer that touched the customer's money carries its transfer id; so are the standing orders, through
 * the debits of their payments, and through `options.standingOrders` (the read model's list of the payer's orders)
 * those that never paid.
 * Returns undefined when the store holds no event of that customer.
 */
export async function loadCustomerHistory(store: EventStore, userId: string, options: LoadHistoryOptions = {}): Promise<CustomerHistory | undefined> {
  const customerStream = streams.customer(userId);
  const accountStream = streams.account(userId);
  const [customer, account] = await Promise.all([store.readStream(customerStream), store.readStream(accountStream)]);
  if (customer.length === 0 && account.length === 0) return undefined;
  const transferIds = [...new Set(account.map(transferIdOf).filter((id): id is string => id !== undefined))];
  const transferStreams = transferIds.map((id) => streams.transfer(id));
  const paidOrders = account.map(standingOrderIdOf).filter((id): id is string => id !== undefined);
  const listedOrders = options.standingOrders ? await options.standingOrders(userId) : [];
  const paidOrderIds = new Set(paidOrders);
  const orderIds = [...new Set([...paidOrders, ...listedOrders])];
  const orderStreams = orderIds.map((id) => streams.standingOrder(id));
  // Orders only the read model names: their stream must show them as this customer's (a row may point elsewhere).
  const listedOnly = new Set(listedOrders.filter((id) => !paidOrderIds.has(id)).map((id) => streams.standingOrder(id)));
  const others = [...transferStreams, ...orderStreams];
  // A bounded number of reads in flight, so a long history neither floods the pool nor waits on one read at a time.
  const read: RecordedEvent[] = [];
  options.onProgress?.({ done: 0, total: others.length });
  const foreign = new Set<string>();
  for (let start = 0; start < others.length; start += TRANSFER_READS_IN_FLIGHT) {
    const group = others.slice(start, start + TRANSFER_READS_IN_FLIGHT);
    const results = await Promise.all(group.map((stream) => store.readStream(stream)));
    results.forEach((events, index) => {
      const stream = group[index]!;
      if (listedOnly.has(stream) && !paidBy(events, userId)) foreign.add(stream);
      else read.push(...events);
    });
    options.onProgress?.({ done: start + group.length, total: others.length });
  }
  const events = [...customer, ...account, ...read].sort((a, b) => comparePositions(a.position, b.position));
  return { userId, events, streams: [customerStream, accountStream, ...others.filter((stream) => !foreign.has(stream))] };
}

/** The instant an event happened: the time the service stamped in its metadata, else the store's own time. */
export function eventTime(event: RecordedEvent): string {
  const at = event.metadata.occurredAt;
  return typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? new Date(at).toISOString() : event.created.toISOString();
}

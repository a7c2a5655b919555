import {
  emptyAccountHistory,
  forgetOlderTransactions,
  MONEY_EVENT_TYPES,
  newCustomerLedger,
  parseEvent,
  replayCustomerLedger,
  streams,
  type CustomerLedgerState,
} from '@bank/domain';
import type { EventStore, RecordedEvent } from '@bank/eventstore';
import { balancesAtAnswer, replaying, type BalancesAt } from './balancesAtAnswer';
import { BALANCES_PAGE_SIZE, type BalancesAtOptions } from './balancesAtReplay';
import { occurredAtOf, schemaVersionOf, toStoredEvent } from './storedEvent';
import { streamPages } from './streamPages';

/** A store that counts and finds a stream's events from its own index (PostgreSQL), without sending them. */
export type IndexedEventStore = EventStore & Required<Pick<EventStore, 'countStreamEvents' | 'lastStreamEvent'>>;

export function isIndexedEventStore(store: EventStore): store is IndexedEventStore {
  return typeof store.countStreamEvents === 'function' && typeof store.lastStreamEvent === 'function';
}

/** What the bounded read answers when what it read breaks an assumption it rests on: replay everything instead. */
export const REPLAY_INSTEAD = 'replay-instead';

/**
 * Events read past the instant's last one: a clock that stepped back between two writers of one stream shows there
 * as an event dated at or before the instant after one dated later, and the whole replay is taken instead.
 */
export const LOOKAHEAD_EVENTS = 64;

const MONEY_TYPES: ReadonlySet<string> = new Set(MONEY_EVENT_TYPES);
const STATUS_TYPES = ['AccountOpened', 'AccountClosed'] as const;

/** The stored event validated by the domain (a ReplayError when it does not fit its schema). */
function parsed(event: RecordedEvent) {
  return replaying(() => parseEvent(event.type, event.data, schemaVersionOf(event)));
}

/**
 * How many of the account stream's first events happened at or before `at`: a binary search by revision, one event
 * read per step, over times that grow along the stream (each event is stamped when it is decided, after the stream's
 * head was read). `head` is the stream's last event.
 */
async function prefixLength(read: (revision: bigint) => Promise<RecordedEvent | undefined>, head: RecordedEvent, at: number): Promise<bigint | undefined> {
  if (occurredAtOf(head).getTime() <= at) return head.revision + 1n;
  let before = -1n; // the last revision known at or before `at` (-1: none)
  let after = head.revision; // the first revision known after it
  while (after - before > 1n) {
    const middle = (before + after) / 2n;
    const event = await read(middle);
    if (!event) return undefined;
    if (occurredAtOf(event).getTime() <= at) before = middle;
    else after = middle;
  }
  return after;
}

/**
 * The account stream's last events up to `last` (inclusive), read backwards a page at a time until they hold the
 * newest `newest` money events or reach the stream's start; oldest first.
 */
async function newestWindow(read: (from: bigint, count: number) => Promise<RecordedEvent[]>, last: bigint, newest: number, pageSize: number): Promise<RecordedEvent[] | undefined> {
  const pages: RecordedEvent[][] = [];
  let money = 0;
  for (let end = last; end >= 0n; ) {
    const start = end - BigInt(pageSize) + 1n > 0n ? end - BigInt(pageSize) + 1n : 0n;
    const page = await read(start, Number(end - start + 1n));
    if (page.length !== Number(end - start + 1n) || page[0]?.revision !== start) return undefined;
    pages.unshift(page);
    money += page.filter((event) => MONEY_TYPES.has(event.type)).length;
    if (money >= newest) break;
    end = start - 1n;
  }
  return pages.flat();
}

/**
 * Balances-at from a bounded read of the account stream, equal to the whole replay (balancesAtReplay.ts) without
 * folding the whole history:
 * - the customer stream (a few events) is replayed whole;
 * - the account stream's events at or before `at` are its first ones (its times grow along it): a binary search by
 *   revision finds where they end;
 * - the balances are each account's `balanceAfterCents` on its last money event there, the transactions' count the
 *   store's count of money events there, the status its last AccountOpened or AccountClosed there;
 * - the newest transactions come from folding the last events there, read backwards until they hold `newest` money
 *   events (a later status change or reversal of one of them is among those events).
 * Reads about log2(stream length) single events, a page or two, LOOKAHEAD_EVENTS past the instant and four index
 * look-ups, whatever the history's length. Answers REPLAY_INSTEAD when the stream does not start with AccountOpened
 * or the times it read do not grow along the stream: the caller then replays everything.
 */
export async function boundedBalancesAt(
  store: IndexedEventStore,
  userId: string,
  at: Date,
  options: BalancesAtOptions = {},
): Promise<BalancesAt | undefined | typeof REPLAY_INSTEAD> {
  const newest = options.newest ?? 200;
  const pageSize = options.pageSize ?? BALANCES_PAGE_SIZE;
  const counted = (events: RecordedEvent[]) => {
    options.onPage?.(events.length);
    return events;
  };
  let state: CustomerLedgerState = newCustomerLedger();
  let customerEvents = 0;
  let applied = 0;
  for await (const page of streamPages(store, streams.customer(userId), { pageSize, readAhead: true, ...(options.onPage ? { onPage: options.onPage } : {}) })) {
    customerEvents += page.length;
    const folded = replaying(() => replayCustomerLedger(page.map(toStoredEvent), at, state));
    state = folded.state;
    applied += folded.applied;
  }
  const stream = streams.account(userId);
  const head = await store.lastStreamEvent(stream);
  counted(head ? [head] : []);
  if (!head) return customerEvents === 0 ? undefined : balancesAtAnswer(userId, at, state, { newest, transactionsTotal: 0, events: applied });

  const readRange = async (from: bigint, count: number) => counted(await store.readStream(stream, { fromRevision: from, limit: count }));
  const readOne = async (revision: bigint) => (await readRange(revision, 1))[0];
  const length = await prefixLength(readOne, head, at.getTime());
  if (length === undefined) return REPLAY_INSTEAD;
  if (length === 0n) return balancesAtAnswer(userId, at, state, { newest, transactionsTotal: 0, events: applied });

  const last = length - 1n;
  const [window, ahead] = await Promise.all([newestWindow(readRange, last, newest, pageSize), length > head.revision ? [] : readRange(length, LOOKAHEAD_EVENTS)]);
  if (!window || !inOrderAround(window, ahead, at.getTime())) return REPLAY_INSTEAD;
  const first = window[0]!.revision === 0n ? window[0] : await readOne(0n);
  if (first?.type !== 'AccountOpened') return REPLAY_INSTEAD;

  const [status, savings, checking, transactionsTotal] = await Promise.all([
    store.lastStreamEvent(stream, { toRevision: last, types: STATUS_TYPES }),
    store.lastStreamEvent(stream, { toRevision: last, types: MONEY_EVENT_TYPES, dataContains: { account: 'savings' } }),
    store.lastStreamEvent(stream, { toRevision: last, types: MONEY_EVENT_TYPES, dataContains: { account: 'checking' } }),
    store.countStreamEvents(stream, { toRevision: last, types: MONEY_EVENT_TYPES }),
  ]);
  counted([status, savings, checking].filter((event): event is RecordedEvent => event !== undefined));

  // The window folded on an open account (or from the start, AccountOpened included); then what it cannot know.
  const account = emptyAccountHistory();
  if (window[0]!.revision > 0n) account.status = 'open';
  state = replaying(() => replayCustomerLedger(window.map(toStoredEvent), at, { customer: state.customer, account })).state;
  forgetOlderTransactions(account, newest);
  account.status = status && parsed(status).type === 'AccountClosed' ? 'closed' : 'open';
  account.balances.savings = balanceAfter(savings);
  account.balances.checking = balanceAfter(checking);
  return balancesAtAnswer(userId, at, state, { newest, transactionsTotal, events: applied + Number(length) });
}

/** Whether the times read grow along the stream, those up to the instant's last event at or before it, the rest after. */
function inOrderAround(upTo: readonly RecordedEvent[], after: readonly RecordedEvent[], at: number): boolean {
  let previous = -Infinity;
  for (const event of upTo) {
    const time = occurredAtOf(event).getTime();
    if (time < previous || time > at) return false;
    previous = time;
  }
  return after.every((event) => occurredAtOf(event).getTime() > at);
}

/** The balance a money event left its account with; 0 before any. */
function balanceAfter(event: RecordedEvent | undefined): number {
  if (!event) return 0;
  const money = parsed(event);
  if (!('balanceAfterCents' in money.data)) throw new Error(`${event.type} at revision ${event.revision} is not a money event`);
  return money.data.balanceAfterCents;
}

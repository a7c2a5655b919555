import {
  emptyAccountHistory,
  forgetOlderTransactions,
  MONEY_EVENT_TYPES,
  newCustomerLedger,
  parseEvent,
  replayCustomerLedger,
  streams,
  type AccountHistory,
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
 * How far back of the latest time before it an event of one account stream may be dated. The bank stamps an event
 * when it decides it, after reading its stream's head, so its streams go back by no more than two writers' clocks
 * differ; the generated bank (seed:scale) dates events up to an hour out of order. Two hours, with room.
 */
export const DISORDER_MS = 2 * 60 * 60 * 1000;

/**
 * Events read past the last one that may be at or before the instant: each must be after it, else the whole replay
 * is taken (a clock that stepped back further than DISORDER_MS shows there).
 */
export const LOOKAHEAD_EVENTS = 64;

const MONEY_TYPES: ReadonlySet<string> = new Set(MONEY_EVENT_TYPES);
const STATUS_TYPES = ['AccountOpened', 'AccountClosed'] as const;

type Read = (from: bigint, count: number) => Promise<RecordedEvent[]>;

const timeOf = (event: RecordedEvent): number => occurredAtOf(event).getTime();

/** The stored event validated by the domain (a ReplayError when it does not fit its schema). */
function parsed(event: RecordedEvent) {
  return replaying(() => parseEvent(event.type, event.data, schemaVersionOf(event)));
}

/**
 * A revision b of the stream with every event before b dated at or before `x` plus DISORDER_MS, and every event from
 * b on dated after `x` minus DISORDER_MS, when no event is dated more than DISORDER_MS before one earlier in the
 * stream: a binary search keeping "dated at or before x" below and "after x" above, one event read per step.
 */
async function boundaryOf(read: Read, head: RecordedEvent, x: number): Promise<bigint | undefined> {
  if (timeOf(head) <= x) return head.revision + 1n;
  let below = -1n;
  let above = head.revision;
  while (above - below > 1n) {
    const middle = (below + above) / 2n;
    const [event] = await read(middle, 1);
    if (!event) return undefined;
    if (timeOf(event) <= x) below = middle;
    else above = middle;
  }
  return above;
}

/** The events from `from` to `to` (exclusive), a page at a time; undefined when the stream does not have them all. */
async function readRange(read: Read, from: bigint, to: bigint, pageSize: number): Promise<RecordedEvent[] | undefined> {
  const events: RecordedEvent[] = [];
  for (let start = from; start < to; start += BigInt(pageSize)) {
    const count = Number(to - start < BigInt(pageSize) ? to - start : BigInt(pageSize));
    const page = await read(start, count);
    if (page.length !== count || page[0]?.revision !== start) return undefined;
    events.push(...page);
  }
  return events;
}

/**
 * The events before `before`, read backwards a page at a time until, with `moneyAfter` money events already in hand,
 * they hold `newest` money events or reach the stream's start; oldest first.
 */
async function readBackTo(read: Read, before: bigint, newest: number, moneyAfter: number, pageSize: number): Promise<RecordedEvent[] | undefined> {
  const pages: RecordedEvent[][] = [];
  let money = moneyAfter;
  for (let end = before; end > 0n && money < newest; ) {
    const start = end > BigInt(pageSize) ? end - BigInt(pageSize) : 0n;
    const page = await readRange(read, start, end, pageSize);
    if (!page) return undefined;
    pages.unshift(page);
    money += page.filter((event) => MONEY_TYPES.has(event.type)).length;
    end = start;
  }
  return pages.flat();
}

/** Whether no event read is dated more than DISORDER_MS before one read earlier in the stream. */
function withinDisorder(events: readonly RecordedEvent[]): boolean {
  let latest = -Infinity;
  for (const event of events) {
    const time = timeOf(event);
    if (time < latest - DISORDER_MS) return false;
    latest = Math.max(latest, time);
  }
  return true;
}

/** The balance a money event left its account with; 0 before any. */
function balanceAfter(event: RecordedEvent | undefined): number {
  if (!event) return 0;
  const money = parsed(event);
  if (!('balanceAfterCents' in money.data)) throw new Error(`${event.type} at revision ${event.revision} is not a money event`);
  return money.data.balanceAfterCents;
}

/**
 * The account's history as the whole replay leaves it after the stream's events before `end`, all of them at or
 * before the instant: status, balances and the count of transactions from the store's index, no records.
 */
async function historyBefore(store: IndexedEventStore, stream: string, end: bigint, onRead: (events: RecordedEvent[]) => void): Promise<{ account: AccountHistory; transactions: number }> {
  const account = emptyAccountHistory();
  if (end === 0n) return { account, transactions: 0 };
  const last = end - 1n;
  const [status, savings, checking, transactions] = await Promise.all([
    store.lastStreamEvent(stream, { toRevision: last, types: STATUS_TYPES }),
    store.lastStreamEvent(stream, { toRevision: last, types: MONEY_EVENT_TYPES, dataContains: { account: 'savings' } }),
    store.lastStreamEvent(stream, { toRevision: last, types: MONEY_EVENT_TYPES, dataContains: { account: 'checking' } }),
    store.countStreamEvents(stream, { toRevision: last, types: MONEY_EVENT_TYPES }),
  ]);
  onRead([status, savings, checking].filter((event): event is RecordedEvent => event !== undefined));
  account.status = status && parsed(status).type === 'AccountClosed' ? 'closed' : 'open';
  account.balances.savings = balanceAfter(savings);
  account.balances.checking = balanceAfter(checking);
  return { account, transactions };
}

/**
 * Balances-at from a bounded read of the account stream, equal to the whole replay (balancesAtReplay.ts): every
 * event dated at or before `at`, wherever it stands in the stream, without folding the whole history.
 * - The customer stream (a few events) is replayed whole.
 * - An account stream's events are dated in stream order but for at most DISORDER_MS: two binary searches by revision
 *   find [from, to), outside which every event is certainly at or before `at` (before `from`) or after it (from `to`).
 * - The stream's state before the events still to fold comes from the store's index (each account's balance from
 *   its last money event's `balanceAfterCents`, the count of money events, the last AccountOpened or AccountClosed);
 *   then the domain folds the rest with the replay's own rule (events dated after `at` skipped): [from, to), and
 *   before it as many pages, read backwards, as the newest `newest` transactions need (a later status change or
 *   reversal of one of them is among the events folded).
 * Reads two binary searches' single events, a page or two, LOOKAHEAD_EVENTS and four index look-ups, whatever the
 * history's length. Answers REPLAY_INSTEAD when the stream does not start with AccountOpened or the events it read
 * break the order it rests on: the caller then replays everything.
 */
export async function boundedBalancesAt(
  store: IndexedEventStore,
  userId: string,
  at: Date,
  options: BalancesAtOptions = {},
): Promise<BalancesAt | undefined | typeof REPLAY_INSTEAD> {
  const newest = options.newest ?? 200;
  const pageSize = options.pageSize ?? BALANCES_PAGE_SIZE;
  const onRead = (events: RecordedEvent[]) => {
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
  onRead(head ? [head] : []);
  if (!head) return customerEvents === 0 ? undefined : balancesAtAnswer(userId, at, state, { newest, transactionsTotal: 0, events: applied });

  const read: Read = async (from, count) => onRead(await store.readStream(stream, { fromRevision: from, limit: count }));
  const instant = at.getTime();
  const [early, late] = await Promise.all([boundaryOf(read, head, instant - DISORDER_MS), boundaryOf(read, head, instant + DISORDER_MS)]);
  if (early === undefined || late === undefined) return REPLAY_INSTEAD;
  const from = early < late ? early : late;
  const to = early < late ? late : early;
  const [middle, ahead] = await Promise.all([readRange(read, from, to, pageSize), to > head.revision ? [] : read(to, LOOKAHEAD_EVENTS)]);
  if (!middle) return REPLAY_INSTEAD;
  const moneyAfter = middle.filter((event) => MONEY_TYPES.has(event.type) && timeOf(event) <= instant).length;
  const before = await readBackTo(read, from, newest, moneyAfter, pageSize);
  if (!before) return REPLAY_INSTEAD;
  const folded = [...before, ...middle];
  const start = from - BigInt(before.length);
  const first = folded[0]?.revision === 0n ? folded[0] : (await read(0n, 1))[0];
  if (
    first?.type !== 'AccountOpened' ||
    !withinDisorder([...folded, ...ahead]) ||
    before.some((event) => timeOf(event) > instant) ||
    ahead.some((event) => timeOf(event) <= instant)
  ) {
    return REPLAY_INSTEAD;
  }

  // The stream before `start` (every event of it at or before `at`) from the index; the rest folded by the domain.
  const prior = await historyBefore(store, stream, start, onRead);
  const result = replaying(() => replayCustomerLedger(folded.map(toStoredEvent), at, { customer: state.customer, account: prior.account }));
  const transactionsTotal = prior.transactions + prior.account.transactions.size;
  forgetOlderTransactions(prior.account, newest);
  return balancesAtAnswer(userId, at, result.state, { newest, transactionsTotal, events: applied + Number(start) + result.applied });
}

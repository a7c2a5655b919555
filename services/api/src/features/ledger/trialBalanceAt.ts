import {
  addEntryToTotals,
  EventParseError,
  emptyLedgerTotals,
  isLedgerAccountKey,
  journalEntryOf,
  parseEvent,
  postingEventTypes,
  totalsFromStored,
  trialBalanceOf,
  type LedgerTotals,
  type TrialBalance,
} from '@bank/domain';
import type { EventStore, Position, RecordedEvent, RecordedPage } from '@bank/eventstore';
import { schemaVersionOf } from '../audit/storedEvent';
import { firstCloseAfter, latestCloseAtOrBefore, type DayCloseStart } from './dayCloseQuery';
import type { Queryable } from './ledgerTotalsQuery';

/**
 * How far past `at` the replay keeps reading. An event counts from the instant the store recorded it (`created`: on
 * PostgreSQL the append's transaction start), the instant the projector writes to rm.journal_lines.recorded_at, so
 * that the trial balance at T holds exactly the journal lines recorded at or before T. The log's order is not
 * quite that instant's order: an append takes its streams' locks before its transaction gets the id that orders
 * it in the log (appendBatchFunction.ts), so an append that waited for a lock comes after appends that started
 * later. An event recorded at or before `at` can therefore sit behind one recorded a little after it; the replay
 * stops only at the first event recorded more than this margin after `at`. Ten seconds is far more than an append
 * waits for a lock, and costs the reading of ten seconds of the log.
 */
export const LEDGER_CLOCK_MARGIN_MS = 10_000;

/** Events per read of the log. */
export const LEDGER_REPLAY_PAGE_SIZE = 1_000;

export class LedgerReplayError extends Error {
  override readonly name = 'LedgerReplayError';
}

export interface TrialBalanceAtOptions {
  readonly pageSize?: number;
  readonly marginMs?: number;
  /** Called after each read of the log with its number of events: lets tests count the work done. */
  readonly onPage?: (events: number) => void;
}

export interface TrialBalanceAt {
  readonly trialBalance: TrialBalance;
  /** The day close the replay started from (none: from the start of the log). */
  readonly close: DayCloseStart | undefined;
  /** Events of the log read after the close. */
  readonly eventsRead: number;
}

function totalsOfClose(close: DayCloseStart | undefined): LedgerTotals {
  if (!close) return emptyLedgerTotals();
  const unknown = close.accounts.find((account) => !isLedgerAccountKey(account.key));
  if (unknown) throw new LedgerReplayError(`The day close of ${close.businessDate} names an account not in the chart: ${unknown.key}`);
  return totalsFromStored(close.accounts);
}

const posts = postingEventTypes as ReadonlySet<string>;
/** Of an event's metadata the replay reads its schema version (schemaVersionOf), nothing else. */
const SCHEMA_VERSION_ONLY = ['schemaVersion'] as const;
const postingTypes: readonly string[] = [...posts];

/** Adds the journal entry of one event recorded at `recordedAt` to `totals` (an event that posts nothing adds none). */
function post(totals: LedgerTotals, event: RecordedEvent, recordedAt: Date): void {
  try {
    const entry = journalEntryOf(parseEvent(event.type, event.data, schemaVersionOf(event)), { streamId: event.streamId, recordedAt: recordedAt.toISOString() });
    if (entry) addEntryToTotals(totals, entry);
  } catch (error) {
    if (error instanceof EventParseError) {
      throw new LedgerReplayError(`The log cannot be replayed: ${error.message}. Run the verification (GET /audit/verify).`);
    }
    throw error;
  }
}

/**
 * The trial balance as the log stood at `at`: the cumulative totals of the latest day close recorded at or before
 * `at` (rm.ledger_days), plus the journal entries of the events after the close's position that were recorded at
 * or before `at`. From a close, a store that finds events by their instant gives that day's part of the log in one
 * read (replaySince); otherwise the log is read in pages, the next one asked for while this one is folded, and the
 * reading stops at the first event recorded more than the clock margin after `at`. Days are closed daily, so a
 * replay reads at most about a day of the log. Without a close it replays from the start of the log.
 */
export async function trialBalanceAt(db: Queryable, store: EventStore, at: Date, options: TrialBalanceAtOptions = {}): Promise<TrialBalanceAt> {
  const close = await latestCloseAtOrBefore(db, at);
  const totals = totalsOfClose(close);
  const eventsRead =
    close?.throughPosition && store.readRecordedSince
      ? await replaySince(db, store, close, at, totals, options)
      : await (store.readRecorded ? replayRecorded : replayFiltering)(store, close?.throughPosition, at, totals, options);
  return { trialBalance: trialBalanceOf(totals), close, eventsRead };
}

type Replay = (store: EventStore, after: Position | undefined, at: Date, totals: LedgerTotals, options: TrialBalanceAtOptions) => Promise<number>;

/**
 * Reads pages one after the other, the next one asked for while this one is folded, and lets the read ahead that was
 * not needed settle without an unhandled rejection.
 */
async function readAhead<P>(first: Promise<P>, next: (page: P) => Promise<P> | undefined, fold: (page: P) => boolean): Promise<void> {
  let pending: Promise<P> | undefined = first;
  try {
    while (pending) {
      const page: P = await pending;
      pending = next(page);
      if (!fold(page)) return;
    }
  } finally {
    pending?.catch(() => undefined);
  }
}

/**
 * From a close, where the store finds events by their instant (readRecordedSince): the posting events after the
 * close recorded by `at`, in one read of the day's part of the log. The store looks from the close's stated instant
 * or its position's, whichever is earlier, less the margin, and no further in the log than the position of the first
 * close made past the instant (and twice the margin): neither what the margin reaches before the start nor what was
 * recorded after `at` is read, however much (a month's last day records every account's interest payment at its
 * close: after an instant just before it, and just before the next day's start). The totals are sums: the order of
 * the events does not matter.
 */
const replaySince = async (db: Queryable, store: EventStore, close: DayCloseStart, at: Date, totals: LedgerTotals, options: TrialBalanceAtOptions): Promise<number> => {
  const marginMs = options.marginMs ?? LEDGER_CLOCK_MARGIN_MS;
  const upTo = await firstCloseAfter(db, new Date(at.getTime() + 2 * marginMs));
  const events = await store.readRecordedSince!({
    after: close.throughPosition!,
    ...(upTo ? { upTo } : {}),
    atOrBefore: at,
    clockMarginMs: marginMs,
    eventTypes: postingTypes,
    recordedFrom: close.closedAt,
    metadataKeys: SCHEMA_VERSION_ONLY,
  });
  options.onPage?.(events.length);
  for (const event of events) post(totals, event, event.created);
  return events.length;
};

/** The store filters as it reads (readRecorded): only posting events recorded by `at` come, up to the margin's end. */
const replayRecorded: Replay = async (store, after, at, totals, options) => {
  const pageSize = options.pageSize ?? LEDGER_REPLAY_PAGE_SIZE;
  const endAfter = new Date(at.getTime() + (options.marginMs ?? LEDGER_CLOCK_MARGIN_MS));
  const read = async (from: Position | undefined): Promise<RecordedPage> => {
    const page = await store.readRecorded!({ ...(from ? { after: from } : {}), limit: pageSize, atOrBefore: at, endAfter, eventTypes: postingTypes });
    options.onPage?.(page.events.length);
    return page;
  };
  let eventsRead = 0;
  await readAhead(
    read(after),
    // A page that did not end is full (the port's contract); an empty one is taken as the end, never as the start.
    (page) => {
      const last = page.events.at(-1);
      return page.ended || !last ? undefined : read(last.position);
    },
    (page) => {
      for (const event of page.events) post(totals, event, event.created);
      eventsRead += page.events.length;
      return true;
    },
  );
  return eventsRead;
};

/** A store that cannot filter: every event is read, and those recorded after `at` or posting nothing are passed over. */
const replayFiltering: Replay = async (store, after, at, totals, options) => {
  const pageSize = options.pageSize ?? LEDGER_REPLAY_PAGE_SIZE;
  const until = at.getTime();
  const stopAfter = until + (options.marginMs ?? LEDGER_CLOCK_MARGIN_MS);
  const read = async (from: Position | undefined): Promise<RecordedEvent[]> => {
    const page = await store.readAll({ ...(from ? { after: from } : {}), limit: pageSize });
    options.onPage?.(page.length);
    return page;
  };
  let eventsRead = 0;
  await readAhead(
    read(after),
    (page) => (page.length === pageSize ? read(page.at(-1)!.position) : undefined),
    (page) => {
      for (const event of page) {
        eventsRead += 1;
        const recordedAt = event.created;
        if (recordedAt.getTime() > stopAfter) return false;
        if (recordedAt.getTime() <= until && posts.has(event.type)) post(totals, event, recordedAt);
      }
      return true;
    },
  );
  return eventsRead;
};

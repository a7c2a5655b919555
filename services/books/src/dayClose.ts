import { createHash } from 'node:crypto';
import { readDomainEvent } from '@bank/commands';
import {
  addEntryToTotals,
  emptyLedgerTotals,
  isBalancedEntry,
  journalEntryOf,
  journalLineText,
  postingEventTypes,
  totalsFromStored,
  totalsToStored,
  trialBalanceOf,
  type BankEventType,
  type BusinessDayClose,
  type JournalEntry,
  type LedgerAccountKey,
} from '@bank/domain';
import { comparePositions, formatPosition, parsePosition, type EventStore, type Position, type RecordedEvent } from '@bank/eventstore';
import { sleep } from '@bank/platform';

const READ_BATCH = 1_000;

/** An entry of the day whose debits differ from its credits (should never be: every posting rule balances). */
export interface UnbalancedEntry {
  readonly position: string;
  readonly eventType: string;
  readonly streamId: string;
  readonly accounts: LedgerAccountKey[];
  readonly debitsCents: string;
  readonly creditsCents: string;
}

export interface DayClose {
  /** BusinessDayClosed's data, as CloseBusinessDay takes it. */
  readonly data: BusinessDayClose;
  readonly unbalancedEntries: readonly UnbalancedEntry[];
}

function unbalancedEntry(entry: JournalEntry, position: string, eventType: string, streamId: string): UnbalancedEntry | undefined {
  if (isBalancedEntry(entry)) return undefined;
  let debits = 0n;
  let credits = 0n;
  for (const line of entry.lines) {
    if (line.side === 'debit') debits += BigInt(line.amountCents);
    else credits += BigInt(line.amountCents);
  }
  return { position, eventType, streamId, accounts: [...new Set(entry.lines.map((line) => line.accountKey))], debitsCents: String(debits), creditsCents: String(credits) };
}

/** What a day close reads of an event of the log (a RecordedEvent has it all). */
export type DayCloseEvent = Pick<RecordedEvent, 'position' | 'type' | 'streamId' | 'data' | 'metadata' | 'created'>;

/**
 * A day close being computed: the log's events after the previous close, handed over in the log's order. The same
 * fold whether the events come from the store (computeDayClose) or from a loader that knows what it wrote and where
 * (the generated bank's bulk load, which has every event's position before it commits).
 */
export interface DayCloseFold {
  /** The next event of the log: its journal lines (when its type posts) go into the totals and the hash. */
  add(recorded: DayCloseEvent): void;
  /** The next event of the log, of a type that posts nothing (`postingEventTypes`): only its position counts. */
  pass(position: Position): void;
  /** The close of `businessDate` over everything handed over. */
  result(businessDate: string, closedAt: string): DayClose;
}

/**
 * Starts the close that follows `previous` (null: the first): its cumulative totals carried in, the hash of the
 * day's lines (journalLineText + '\n', in position and line order) and the position reached.
 */
export function startDayClose(previous: BusinessDayClose | null): DayCloseFold {
  const totals = previous ? totalsFromStored(previous.accounts) : emptyLedgerTotals();
  const hash = createHash('sha256');
  const unbalancedEntries: UnbalancedEntry[] = [];
  let lineCount = 0;
  // '' is the position of a close taken on an empty log.
  let through: Position | undefined = previous && previous.throughPosition !== '' ? parsePosition(previous.throughPosition) : undefined;
  return {
    add(recorded) {
      through = recorded.position;
      if (!postingEventTypes.has(recorded.type as BankEventType)) return;
      const entry = journalEntryOf(readDomainEvent(recorded), { streamId: recorded.streamId, recordedAt: recorded.created.toISOString() });
      if (!entry) return;
      const position = formatPosition(recorded.position);
      addEntryToTotals(totals, entry);
      for (const [lineNo, line] of entry.lines.entries()) {
        hash.update(`${journalLineText(position, lineNo, entry.businessDate, line)}\n`);
        lineCount += 1;
      }
      const unbalanced = unbalancedEntry(entry, position, recorded.type, recorded.streamId);
      if (unbalanced) unbalancedEntries.push(unbalanced);
    },
    pass(position) {
      through = position;
    },
    result(businessDate, closedAt) {
      const trial = trialBalanceOf(totals);
      const unbalancedAccounts = unbalancedAccountsOf(unbalancedEntries, previous);
      return {
        data: {
          businessDate,
          closedAt,
          throughPosition: through ? formatPosition(through) : '',
          accounts: totalsToStored(totals),
          totalDebitsCents: String(trial.totalDebitsCents),
          totalCreditsCents: String(trial.totalCreditsCents),
          balanced: trial.balanced,
          journalHash: hash.digest('hex'),
          lineCount,
          ...(trial.balanced ? {} : { unbalancedAccounts }),
        },
        unbalancedEntries,
      };
    },
  };
}

/**
 * The day close of `businessDate`: the journal lines of the events after the previous close's throughPosition up to
 * the head of the log as it is now, added to the previous close's cumulative totals with the domain's own posting
 * rule and totals (startDayClose). Reads only the day's part of the log.
 */
export async function computeDayClose(
  store: EventStore,
  previous: BusinessDayClose | null,
  businessDate: string,
  closedAt: string,
  options: { readonly atLeast?: Position; readonly waitMs?: number } = {},
): Promise<DayClose> {
  const fold = startDayClose(previous);
  let through: Position | undefined = previous && previous.throughPosition !== '' ? parsePosition(previous.throughPosition) : undefined;
  const head = options.atLeast ? await visibleHead(store, options.atLeast, options.waitMs ?? 60_000) : await store.headPosition();
  let reading = head !== undefined && (through === undefined || comparePositions(head, through) > 0);
  while (reading && head) {
    const batch = await store.readAll({ ...(through ? { after: through } : {}), limit: READ_BATCH });
    if (batch.length < READ_BATCH) reading = false;
    for (const recorded of batch) {
      if (comparePositions(recorded.position, head) > 0) {
        reading = false;
        break;
      }
      through = recorded.position;
      fold.add(recorded);
    }
  }
  return fold.result(businessDate, closedAt);
}

/**
 * The accounts an unbalanced close names: those of the day's entries that do not balance, else (an imbalance carried
 * in) the ones the previous close already named.
 */
function unbalancedAccountsOf(entries: readonly UnbalancedEntry[], previous: BusinessDayClose | null): string[] {
  const accounts = new Set<string>(entries.flatMap((entry) => entry.accounts));
  if (accounts.size === 0) for (const key of previous?.unbalancedAccounts ?? []) accounts.add(key);
  return [...accounts].sort();
}

/**
 * The head of the log once it includes `atLeast`. The log shows an event only when every older transaction of the
 * PostgreSQL cluster has ended (the xmin fence, postgres/eventReader.ts): a long transaction anywhere holds the head
 * back. The close waits for its own steps' events (the COB's last append) to be visible, so a date's close covers
 * what its steps did; the store announces no such moment, so this looks every 20 ms (a COB waits at most `waitMs`,
 * then fails and the next tick tries again).
 */
async function visibleHead(store: EventStore, atLeast: Position, waitMs: number): Promise<Position> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const head = await store.headPosition();
    if (head && comparePositions(head, atLeast) >= 0) return head;
    if (Date.now() > deadline) throw new Error(`The log's head did not reach ${formatPosition(atLeast)} within ${waitMs} ms (a long transaction holds it back)`);
    await sleep(20);
  }
}

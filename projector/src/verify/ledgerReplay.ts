import {
  addEntryToTotals,
  clearingMovesOf,
  emptyLedgerTotals,
  journalEntryOf,
  postingEventTypes,
  type BankEvent,
  type JournalLine,
  type LedgerTotals,
} from '@bank/domain';
import type { RecordedEvent } from '@bank/eventstore';

/** A journal line as the replay of the log gives it: what rm.journal_lines must hold at (position, lineNo). */
export interface ExpectedLine {
  readonly position: string;
  readonly lineNo: number;
  readonly streamId: string;
  readonly eventId: string;
  readonly recordedAt: string;
  readonly businessDate: string;
  readonly line: JournalLine;
}

/** An open clearing item of the replay. */
export interface ExpectedClearingItem {
  readonly accountKey: string;
  readonly transferId: string;
  readonly amountCents: number;
  readonly since: string;
}

/** A day close of the replay (BusinessDayClosed's data, as rm.ledger_days holds it). */
export interface ExpectedDay {
  readonly closedAt: string;
  /** The close event's `created`. */
  readonly recordedAt: string;
  readonly throughPosition: string;
  readonly totalDebitsCents: string;
  readonly totalCreditsCents: string;
  readonly balanced: boolean;
  readonly journalHash: string;
  readonly lineCount: number;
  readonly accounts: unknown;
}

/** The event types whose replay the books need: the postings and the business days. */
export const ledgerReplayTypes: ReadonlySet<string> = new Set<string>([...postingEventTypes, 'BusinessCalendarStarted', 'BusinessDayClosed']);

/**
 * The books replayed from the log through the domain's posting rule (journalEntryOf, clearingMovesOf,
 * addEntryToTotals), exactly as the ledger projection applies them: the lines of the current page (taken by the
 * caller page by page, to compare with the read model's in a bounded memory), and the running totals, open
 * clearing items, day closes and business date of everything replayed.
 */
export class LedgerReplay {
  readonly totals: LedgerTotals = emptyLedgerTotals();
  readonly clearing = new Map<string, ExpectedClearingItem>();
  readonly days = new Map<string, ExpectedDay>();
  businessDate: { firstDate: string | null; mode: string | null; lastClosed: string | null } = { firstDate: null, mode: null, lastClosed: null };
  private page: ExpectedLine[] = [];

  /** Replays one event of the log (already parsed by the domain). */
  add(recorded: RecordedEvent, positionText: string, event: BankEvent): void {
    if (event.type === 'BusinessCalendarStarted') {
      this.businessDate = { ...this.businessDate, firstDate: event.data.firstDate, mode: event.data.mode };
      return;
    }
    if (event.type === 'BusinessDayClosed') {
      const d = event.data;
      if (this.days.has(d.businessDate)) return;
      this.days.set(d.businessDate, {
        closedAt: d.closedAt,
        recordedAt: recorded.created.toISOString(),
        throughPosition: d.throughPosition,
        totalDebitsCents: d.totalDebitsCents,
        totalCreditsCents: d.totalCreditsCents,
        balanced: d.balanced,
        journalHash: d.journalHash,
        lineCount: d.lineCount,
        accounts: d.accounts,
      });
      const last = this.businessDate.lastClosed;
      if (last === null || d.businessDate > last) this.businessDate = { ...this.businessDate, lastClosed: d.businessDate };
      return;
    }
    const recordedAt = recorded.created.toISOString();
    const entry = journalEntryOf(event, { streamId: recorded.streamId, recordedAt });
    if (!entry) return;
    entry.lines.forEach((line, lineNo) => {
      this.page.push({ position: positionText, lineNo, streamId: recorded.streamId, eventId: recorded.id, recordedAt, businessDate: entry.businessDate, line });
    });
    addEntryToTotals(this.totals, entry);
    // An item is the net of its moves, open while not zero, since the move that opened it (see JournalBatch).
    for (const move of clearingMovesOf(entry)) {
      const key = clearingKey(move.accountKey, move.transferId);
      const item = this.clearing.get(key);
      const amountCents = (item?.amountCents ?? 0) + (move.opens ? move.amountCents : -move.amountCents);
      if (amountCents === 0) this.clearing.delete(key);
      else this.clearing.set(key, { accountKey: move.accountKey, transferId: move.transferId, amountCents, since: item?.since ?? recordedAt });
    }
  }

  /** The lines replayed since the last call, in (position, lineNo) order. */
  takePage(): ExpectedLine[] {
    const page = this.page;
    this.page = [];
    return page;
  }
}

/** How a clearing item is named (the transfer id in lower case, as PostgreSQL prints a uuid). */
export function clearingKey(accountKey: string, transferId: string): string {
  return `${accountKey} ${transferId.toLowerCase()}`;
}

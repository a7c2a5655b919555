import { forgetTransactions } from '../account/accountHistory';
import type { TransactionKind } from '../account/transactionKind';
import { parseEvent } from '../events/eventSchemas';
import type { AccountKind, Direction } from '../primitives';
import { evolveCustomerLedger, newCustomerLedger, type CustomerLedgerState, type StoredEvent } from '../replay/replayCustomer';
import type { StatementPeriod } from './statementPeriod';

/** One line of a statement: a money event of the account, with the balance the log gives after it. */
export interface StatementLine {
  readonly transactionId: string;
  /** When the log recorded it (the instant that places it in the period), ISO-8601. */
  readonly date: string;
  readonly description: string;
  readonly direction: Direction;
  readonly kind: TransactionKind;
  readonly amountCents: number;
  readonly balanceAfterCents: number;
  readonly transferId: string | null;
}

export interface StatementTotals {
  readonly openingCents: number;
  readonly closingCents: number;
  readonly totalInCents: number;
  readonly totalOutCents: number;
  readonly lines: number;
}

/** What one event of the account stream did to the statement. */
export type StatementStep =
  | { readonly kind: 'before' }
  /** The first event of the period: the opening balance is now known (a line may follow in the same step). */
  | { readonly kind: 'line'; readonly line: StatementLine | undefined; readonly opened: boolean }
  /** An event after the period: the statement is complete, the rest of the stream need not be read. */
  | { readonly kind: 'after' };

/**
 * A statement of one account over a period, folded from the account stream in order, one stored event at a time
 * (pages of any size): the auditors' fold (evolveCustomerLedger, as replayCustomer / GET /audit/users/:id/balances)
 * over every event stamped up to the period's end, so the closing balance is the balances-at of `period.end`.
 * Events stamped before the period give the opening balance; from the first event stamped in the period on, each
 * money event of the account is a line with the balance after it. Stamps are non-decreasing along a stream (each
 * append is stamped when decided, under the stream's revision check), so the opening balance is the balances-at of
 * the instant before `period.start`, and the first event stamped after `period.end` ends the statement.
 * Memory stays bounded: the transaction records the fold keeps are dropped as soon as a line is made of them.
 */
export interface StatementFold {
  step(event: StoredEvent): StatementStep;
  /** Whether the opening balance is known (an event of the period, or after it, has been seen). */
  readonly opened: boolean;
  /** The totals so far; after the last event (or an 'after' step) they are the statement's. */
  totals(): StatementTotals;
}

function timeOf(createdAt: StoredEvent['createdAt']): number | undefined {
  if (createdAt === undefined) return undefined;
  return createdAt instanceof Date ? createdAt.getTime() : Date.parse(createdAt);
}

export function createStatementFold(account: AccountKind, period: Pick<StatementPeriod, 'start' | 'end'>): StatementFold {
  const start = period.start.getTime();
  const end = period.end.getTime();
  let state: CustomerLedgerState = newCustomerLedger();
  let opened = false;
  let finished = false;
  let openingCents = 0;
  let totalInCents = 0;
  let totalOutCents = 0;
  let lines = 0;

  const balance = (): number => (state.account.status === 'unopened' ? 0 : state.account.balances[account]);

  function open(): void {
    opened = true;
    openingCents = balance();
  }

  return {
    get opened() {
      return opened;
    },
    step(stored) {
      if (finished) return { kind: 'after' };
      const at = timeOf(stored.createdAt);
      if (at !== undefined && at > end) {
        if (!opened) open();
        finished = true;
        return { kind: 'after' };
      }
      const event = parseEvent(stored.type, stored.data, stored.schemaVersion);
      const inPeriod = opened || (at !== undefined && at >= start);
      const opensNow = inPeriod && !opened;
      if (opensNow) open();
      state = evolveCustomerLedger(state, event);
      if (!inPeriod) {
        forgetTransactions(state.account);
        return { kind: 'before' };
      }
      const record = 'transactionId' in event.data ? state.account.transactions.get(event.data.transactionId) : undefined;
      forgetTransactions(state.account);
      if (!record || record.account !== account || event.type === 'TransactionStatusChanged') return { kind: 'line', line: undefined, opened: opensNow };
      const line: StatementLine = {
        transactionId: record.transactionId,
        date: at === undefined ? record.occurredAt : new Date(at).toISOString(),
        description: record.description,
        direction: record.direction,
        kind: record.kind,
        amountCents: record.amountCents,
        balanceAfterCents: balance(),
        transferId: record.transferId,
      };
      lines += 1;
      if (line.direction === 'credit') totalInCents += line.amountCents;
      else totalOutCents += line.amountCents;
      return { kind: 'line', line, opened: opensNow };
    },
    totals() {
      const closingCents = balance();
      return { openingCents: opened ? openingCents : closingCents, closingCents, totalInCents, totalOutCents, lines };
    },
  };
}

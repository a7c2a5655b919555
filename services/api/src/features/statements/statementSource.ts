import {
  createStatementFold,
  EventParseError,
  isRegistered,
  replayCustomer,
  streams,
  type AccountKind,
  type StatementLine,
  type StatementPeriod,
  type StatementTotals,
  type StoredEvent,
} from '@bank/domain';
import type { EventStore } from '@bank/eventstore';
import { toStoredEvent } from '../audit/storedEvent';
import { streamPages } from '../audit/streamPages';
import { ReplayError } from '../audit/balancesAt';

/** Events read from the account stream per query: a statement holds one page in memory, whatever its length. */
export const STATEMENT_PAGE_SIZE = 500;

/** Who the statement is for, as the customer stream records them. */
export interface StatementHolder {
  readonly userId: string;
  readonly name: string;
  /** Address lines. */
  readonly address: readonly string[];
  readonly accountNumber: string;
}

export type StatementItem =
  | { readonly kind: 'opening'; readonly openingCents: number }
  | { readonly kind: 'line'; readonly line: StatementLine }
  | { readonly kind: 'closing'; readonly totals: StatementTotals };

/** A statement as it is produced: its holder and period now, its items as the account stream is read. */
export interface StatementSource {
  readonly holder: StatementHolder;
  readonly account: AccountKind;
  readonly period: StatementPeriod;
  /** The opening balance, every line, then the totals; reads the stream a page at a time as it is iterated. */
  readonly items: AsyncIterable<StatementItem>;
}

export interface StatementReadOptions {
  readonly pageSize?: number;
  /** Called after each page read (with its number of events): lets tests count the work done. */
  readonly onPage?: (events: number) => void;
}

function replayFailure(error: unknown): unknown {
  return error instanceof EventParseError
    ? new ReplayError(`The record of this customer cannot be replayed: ${error.message}. Run the verification (GET /audit/verify).`)
    : error;
}

/** The statement's items from stored events (read in pages by `statementItems`, or any other sequence). */
export async function* foldStatement(account: AccountKind, period: StatementPeriod, pages: AsyncIterable<readonly StoredEvent[]>): AsyncGenerator<StatementItem> {
  const fold = createStatementFold(account, period);
  let openingSent = false;
  try {
    for await (const page of pages) {
      for (const event of page) {
        const step = fold.step(event);
        if (fold.opened && !openingSent) {
          openingSent = true;
          yield { kind: 'opening', openingCents: fold.totals().openingCents };
        }
        if (step.kind === 'line' && step.line) yield { kind: 'line', line: step.line };
        if (step.kind === 'after') {
          yield { kind: 'closing', totals: fold.totals() };
          return;
        }
      }
    }
  } catch (error) {
    throw replayFailure(error);
  }
  const totals = fold.totals();
  if (!openingSent) yield { kind: 'opening', openingCents: totals.openingCents };
  yield { kind: 'closing', totals };
}

/** The account stream of `userId` in pages, oldest first; stops at the end of the stream or when the consumer does. */
async function* accountPages(store: EventStore, userId: string, options: StatementReadOptions): AsyncGenerator<StoredEvent[]> {
  const pages = streamPages(store, streams.account(userId), {
    pageSize: options.pageSize ?? STATEMENT_PAGE_SIZE,
    ...(options.onPage ? { onPage: options.onPage } : {}),
  });
  for await (const page of pages) yield page.map(toStoredEvent);
}

/** The holder as the customer stream's events give them (the auditors' replay); undefined for no registered customer. */
export function holderFromEvents(userId: string, events: Iterable<StoredEvent>): StatementHolder | undefined {
  let customer;
  try {
    customer = replayCustomer(events).customer;
  } catch (error) {
    throw replayFailure(error);
  }
  if (!isRegistered(customer)) return undefined;
  return {
    userId,
    name: `${customer.firstName} ${customer.lastName}`.trim(),
    address: [customer.address, customer.state].filter((part) => part.trim() !== ''),
    accountNumber: customer.accountNumber,
  };
}

/** The holder from the customer stream; undefined when the store holds no such customer. */
export async function readHolder(store: EventStore, userId: string): Promise<StatementHolder | undefined> {
  const events = await store.readStream(streams.customer(userId));
  return holderFromEvents(userId, events.map(toStoredEvent));
}

/**
 * A customer's statement of one account over a period, straight from the event store (never the read models):
 * undefined when the store holds no such customer. Nothing of the account stream is read until `items` is iterated.
 */
export async function openStatement(
  store: EventStore,
  userId: string,
  account: AccountKind,
  period: StatementPeriod,
  options: StatementReadOptions = {},
): Promise<StatementSource | undefined> {
  const holder = await readHolder(store, userId);
  if (!holder) return undefined;
  return { holder, account, period, items: foldStatement(account, period, accountPages(store, userId, options)) };
}

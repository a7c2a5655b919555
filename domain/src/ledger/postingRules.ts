import { utcDateOf } from '../calendar';
import type { BankEvent, BankEventType, EventOf } from '../events/eventSchemas';
import type { AccountKind } from '../primitives';
import { parseStreamName } from '../streams';
import type { LedgerAccountKey, LedgerSide } from './chartOfAccounts';
import { controlAccountKeyOf, ledgerAccountOf } from './chartOfAccounts';

/** One line of a journal entry. Lines that concern a customer carry the customer; subledger lines the account type. */
export interface JournalLine {
  readonly accountKey: LedgerAccountKey;
  readonly side: LedgerSide;
  /** Positive integer cents. */
  readonly amountCents: number;
  readonly customerId?: string;
  readonly accountType?: AccountKind;
  readonly transferId?: string;
  readonly actorId?: string;
  readonly description: string;
}

/** The journal entry of one money event: its lines balance (debits = credits). */
export interface JournalEntry {
  readonly businessDate: string;
  readonly lines: readonly JournalLine[];
}

/** Where the event was stored: the stream (the customer of an account stream) and when it was recorded. */
export interface PostingSource {
  readonly streamId: string;
  readonly recordedAt: string;
}

/** The event types that post to the ledger (subscriptions may filter on them). */
export const postingEventTypes: ReadonlySet<BankEventType> = new Set<BankEventType>([
  'AccountCredited',
  'AccountDebited',
  'BalanceAdjusted',
  'StaffTransactionPosted',
  'TransactionReversed',
  'TransferSettled',
  'InterestBooked',
  'AchIncomingReturned',
  'AchFileSettled',
]);

type Party = { readonly customerId?: string; readonly transferId?: string; readonly actorId?: string };

function opposite(side: LedgerSide): LedgerSide {
  return side === 'debit' ? 'credit' : 'debit';
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function line(accountKey: LedgerAccountKey, side: LedgerSide, amountCents: number, description: string, party: Party, accountType?: AccountKind): JournalLine {
  return {
    accountKey,
    side,
    amountCents,
    ...optional('customerId', party.customerId),
    ...optional('accountType', accountType),
    ...optional('transferId', party.transferId),
    ...optional('actorId', party.actorId),
    description,
  };
}

/**
 * A movement of a customer's balance against one other account: the customer's control line (credit when the
 * balance grows: the bank owes more) and the other side.
 */
function againstCustomer(
  event: EventOf<'AccountCredited' | 'AccountDebited' | 'BalanceAdjusted' | 'StaffTransactionPosted' | 'TransactionReversed'>,
  otherAccount: LedgerAccountKey,
  description: string,
  party: Party,
): JournalLine[] {
  const { amountCents, account, direction } = event.data;
  const customerSide: LedgerSide = direction === 'credit' ? 'credit' : 'debit';
  return [
    line(controlAccountKeyOf[account], customerSide, amountCents, description, party, account),
    line(otherAccount, opposite(customerSide), amountCents, description, party),
  ];
}

function customerOf(streamId: string): string | undefined {
  const parsed = parseStreamName(streamId);
  return parsed?.category === 'account' ? parsed.id : undefined;
}

function withReason(description: string, reason: string | null | undefined): string {
  return reason ? `${description} (reason: ${reason})` : description;
}

function linesOf(event: BankEvent, source: PostingSource): JournalLine[] | undefined {
  switch (event.type) {
    case 'AccountDebited': {
      const { data } = event;
      const customerId = customerOf(source.streamId);
      // A transfer's debit: the money waits in the clearing account of its kind until credited, settled or refunded.
      const clearing: LedgerAccountKey = data.intent?.internal === false ? 'ach-outbound' : 'transfers-in-transit';
      return againstCustomer(event, clearing, data.description, { customerId, transferId: data.transferId, actorId: customerId });
    }
    case 'AccountCredited': {
      const { data } = event;
      // An interest payment: the accrued interest leaves interest-payable for the customer's balance.
      if (data.interest !== undefined) return againstCustomer(event, 'interest-payable', data.description, { customerId: customerOf(source.streamId) });
      // An incoming ACH credit: the money arrived at the Fed for the customer.
      if (data.achTraceNumber !== undefined) return againstCustomer(event, 'cash-at-fed', data.description, { customerId: customerOf(source.streamId) });
      const clearing: LedgerAccountKey = data.refundOf !== undefined ? (data.clearing ?? 'transfers-in-transit') : 'transfers-in-transit';
      return againstCustomer(event, clearing, data.description, { customerId: customerOf(source.streamId), transferId: data.transferId });
    }
    case 'BalanceAdjusted': {
      const { data } = event;
      const description = data.reason ? `Balance adjustment: ${data.reason}` : 'Balance adjustment';
      return againstCustomer(event, 'staff-adjustments', description, { customerId: customerOf(source.streamId), actorId: data.adminId });
    }
    case 'StaffTransactionPosted': {
      const { data } = event;
      return againstCustomer(event, 'staff-postings', withReason(data.description, data.reason), { customerId: customerOf(source.streamId), actorId: data.adminId });
    }
    case 'TransactionReversed': {
      const { data } = event;
      return againstCustomer(event, 'staff-postings', data.description, { customerId: customerOf(source.streamId), transferId: data.transferId, actorId: data.adminId });
    }
    case 'TransferSettled': {
      const { data } = event;
      // Settlements recorded before the books carry no amount: they cannot post (docs/ledger.md, "Older events").
      if (data.amountCents === undefined) return undefined;
      const party: Party = { customerId: data.payerId, transferId: data.transferId };
      const description = 'External transfer settled';
      return [line('ach-outbound', 'debit', data.amountCents, description, party), line('cash-at-fed', 'credit', data.amountCents, description, party)];
    }
    case 'AchIncomingReturned': {
      // An incoming credit the bank cannot apply: received at the Fed and owed back until its return settles.
      const { data } = event;
      const party: Party = { transferId: data.transferId };
      const description = `ACH entry ${data.returnOf.originalTraceNumber} owed back (${data.returnOf.reasonCode})`;
      return [line('cash-at-fed', 'debit', data.amountCents, description, party), line('ach-outbound', 'credit', data.amountCents, description, party)];
    }
    case 'AchFileSettled': {
      // The returns the bank owed settle like outgoing entries; the transfers settle on their own streams.
      const { data } = event;
      if (data.returns.length === 0) return undefined;
      const description = 'ACH return settled';
      return data.returns.flatMap((item) => [
        line('ach-outbound', 'debit', item.amountCents, description, { transferId: item.transferId }),
        line('cash-at-fed', 'credit', item.amountCents, description, { transferId: item.transferId }),
      ]);
    }
    case 'InterestBooked': {
      const { data } = event;
      // The day's accrual over every account, in one entry (the interest read model holds each account's part).
      if (data.bookedCents === 0) return undefined;
      const description = `Interest accrued for ${data.businessDate}`;
      return [line('interest-expense', 'debit', data.bookedCents, description, {}), line('interest-payable', 'credit', data.bookedCents, description, {})];
    }
    default:
      return undefined;
  }
}

function businessDateOfEvent(event: BankEvent, source: PostingSource): string {
  const data = event.data as { readonly businessDate?: string };
  return data.businessDate ?? utcDateOf(source.recordedAt);
}

/**
 * The one posting rule of the bank: the journal entry of a money event, undefined for any other event. The
 * projector, the replays (trial balance at an instant, audit:verify, the day close) and the generated bank all
 * call it; nothing else decides a posting. See docs/ledger.md for each event's entry.
 */
export function journalEntryOf(event: BankEvent, source: PostingSource): JournalEntry | undefined {
  if (!postingEventTypes.has(event.type)) return undefined;
  const lines = linesOf(event, source);
  if (lines === undefined) return undefined;
  return { businessDate: businessDateOfEvent(event, source), lines };
}

/** True when the entry's debits equal its credits and every line is a known account with a positive amount. */
export function isBalancedEntry(entry: JournalEntry): boolean {
  let difference = 0;
  for (const entryLine of entry.lines) {
    if (!ledgerAccountOf(entryLine.accountKey) || !Number.isSafeInteger(entryLine.amountCents) || entryLine.amountCents <= 0) return false;
    difference += entryLine.side === 'debit' ? entryLine.amountCents : -entryLine.amountCents;
  }
  return difference === 0;
}

/** A clearing item opened (money of a transfer credited to a clearing account) or closed (debited from it). */
export interface ClearingMove {
  readonly accountKey: LedgerAccountKey;
  readonly transferId: string;
  readonly amountCents: number;
  readonly opens: boolean;
}

export function clearingMovesOf(entry: JournalEntry): ClearingMove[] {
  const moves: ClearingMove[] = [];
  for (const entryLine of entry.lines) {
    if (entryLine.transferId === undefined || ledgerAccountOf(entryLine.accountKey)?.role !== 'clearing') continue;
    moves.push({ accountKey: entryLine.accountKey, transferId: entryLine.transferId, amountCents: entryLine.amountCents, opens: entryLine.side === 'credit' });
  }
  return moves;
}

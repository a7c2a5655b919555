import {
  centsToDollars,
  evolveCustomerLedger,
  formatAnnualRate,
  formatUsd,
  newCustomerLedger,
  MASK,
  maskSecrets as maskDomainSecrets,
  safeParseEvent,
  type BankEvent,
  type CustomerLedgerState,
} from '@bank/domain';
import type { EventStore, RecordedEvent } from '@bank/eventstore';
import { eventTime } from './customerHistory';

export type AccountKind = 'savings' | 'checking';

/** One value a staff member (or the customer) changed: before and after, as shown to auditors (money in dollars). */
export interface FieldChange {
  readonly field: string;
  readonly before: string | number | boolean | null;
  readonly after: string | number | boolean | null;
}

/** An event as auditors see it (GET /audit/users/:id/events). */
export interface AuditEvent {
  readonly id: string;
  /** Position token in the global log (as in X-Event-Position). */
  readonly position: string;
  readonly stream: string;
  readonly revision: number;
  readonly type: string;
  /** When it happened (ISO-8601). */
  readonly time: string;
  readonly actor: { readonly id: string | null; readonly role: string | null };
  /** True for an action of staff (an admin) rather than of the customer or the system. */
  readonly staff: boolean;
  /** The event's data as stored, with secrets masked; amounts in cents, as recorded. */
  readonly data: Record<string, unknown>;
  /** One line a person can read, amounts in dollars. */
  readonly summary: string;
  /** What changed, before and after (staff edits, balance movements). */
  readonly changes: readonly FieldChange[];
  /** The customer's balances (dollars) after this event, replayed by the domain. */
  readonly balances: { readonly savings: number; readonly checking: number };
  /** Set when the stored data does not fit the event's schema (the replay skips such an event). */
  readonly problem?: string;
}

/** The event's data with its secrets (password and pin hashes) masked, by the domain's rule. */
export function maskSecrets(type: string, data: Record<string, unknown>): Record<string, unknown> {
  return maskDomainSecrets({ type, data } as unknown as Pick<BankEvent, 'type' | 'data'>);
}

const str = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value));
const cents = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined);
const usd = (value: unknown): string => {
  const amount = cents(value);
  return amount === undefined ? '?' : formatUsd(amount);
};
const isAccount = (value: unknown): value is AccountKind => value === 'savings' || value === 'checking';

/** A one-line description of an event for people (CLI, CSV, screens). */
export function summarize(type: string, data: Record<string, unknown>): string {
  const account = str(data.account);
  const description = data.description ? ` — ${str(data.description)}` : '';
  switch (type) {
    case 'CustomerRegistered':
      return `Registered ${str(data.firstName)} ${str(data.lastName)} <${str(data.email)}> as ${str(data.role)}, account ${str(data.accountNumber)}`;
    case 'ProfileChanged': {
      const after = (data.after ?? {}) as Record<string, unknown>;
      return `Profile changed: ${Object.keys(after).join(', ') || 'nothing'}`;
    }
    case 'PasswordChanged':
      return 'Password changed';
    case 'VerificationSubmitted':
      return `Verification submitted (${str(data.documentType)})`;
    case 'VerificationStatusSet':
      return `Verification status ${str(data.previousStatus)} → ${str(data.status)}`;
    case 'ProfilePictureSet':
      return 'Profile picture set';
    case 'PaymentPinSet':
      return 'Payment pin set';
    case 'CustomerBlocked':
      return 'Transfers blocked';
    case 'CustomerUnblocked':
      return 'Transfers unblocked';
    case 'CustomerDisabled':
      return 'Sign-in disabled';
    case 'CustomerEnabled':
      return 'Sign-in enabled';
    case 'AccountNumberChanged':
      return `Account number ${str(data.previous)} → ${str(data.next)}`;
    case 'CustomerClosed':
      return 'Customer closed';
    case 'CardRequested':
      return `Card requested${data.cardType ? ` (${str(data.cardType)})` : ''}`;
    case 'SecondFactorEnrolled':
      return 'Second factor (authenticator app) turned on, 10 recovery codes issued';
    case 'SecondFactorRemoved':
      return 'Second factor turned off by the user';
    case 'SecondFactorReset':
      return `Second factor reset by staff: ${str(data.reason)}`;
    case 'RecoveryCodeUsed':
      return `Signed in with recovery code ${Number(data.index) + 1}; ${str(data.remaining)} left`;
    case 'AccountOpened':
      return `Account ${str(data.accountNumber)} opened`;
    case 'AccountCredited':
      return `${data.refundOf ? 'Refund' : 'Credit'} ${usd(data.amountCents)} to ${account} (${str(data.status)})${description}; balance ${usd(data.balanceAfterCents)}`;
    case 'AccountDebited':
      return `Debit ${usd(data.amountCents)} from ${account} (${str(data.status)})${description}; balance ${usd(data.balanceAfterCents)}`;
    case 'BalanceAdjusted':
      return `Balance of ${account} set ${usd(data.previousCents)} → ${usd(data.newCents)}${data.reason ? ` (${str(data.reason)})` : ''}`;
    case 'StaffTransactionPosted':
      return `Staff ${str(data.direction)} ${usd(data.amountCents)} on ${account}${description}; balance ${usd(data.balanceAfterCents)}`;
    case 'TransactionReversed':
      return `Reversal of ${str(data.reversedTransactionId)}: ${str(data.direction)} ${usd(data.amountCents)} on ${account}; balance ${usd(data.balanceAfterCents)}`;
    case 'TransactionStatusChanged':
      return `Transaction ${str(data.transactionId)} ${str(data.previousStatus)} → ${str(data.status)}`;
    case 'AccountClosed':
      return 'Account closed';
    case 'TransferRequested':
      return `Transfer of ${usd(data.amountCents)} from ${str(data.from)} to ${str(data.recipientName)} (${str(data.accountNumber)}, ${
        data.internal ? 'this bank' : str(data.bankName) || 'another bank'
      }) requested`;
    case 'TransferDebited':
      return `Transfer debited ${usd(data.amountCents)} from ${account}`;
    case 'TransferCredited':
      return `Transfer credited ${usd(data.amountCents)} to ${account}`;
    case 'TransferSent':
      return 'Transfer sent to the other bank';
    case 'TransferSettled':
      return 'Transfer settled';
    case 'TransferFailed':
      return `Transfer failed: ${str(data.reason)}`;
    case 'TransferRefunded':
      return `Transfer refunded ${usd(data.amountCents)} to ${account}`;
    case 'StandingOrderCreated': {
      const schedule = (data.schedule ?? {}) as Record<string, unknown>;
      return `Standing order of ${usd(data.amountCents)} from ${str(data.from)} to ${str(data.recipientName)} (${str(data.accountNumber)}), ${str(schedule.frequency)} on day ${str(schedule.day)} from ${str(schedule.firstDate)}`;
    }
    case 'StandingOrderPaused':
      return 'Standing order paused';
    case 'StandingOrderResumed':
      return `Standing order resumed from ${str(data.resumedOn)}`;
    case 'StandingOrderCancelled':
      return 'Standing order cancelled';
    case 'StandingOrderSuspended':
      return `Standing order suspended: ${str(data.reason)}`;
    case 'OccurrencePaid':
      return `Standing order payment of ${str(data.date)} made (transfer ${str(data.transferId)})`;
    case 'OccurrenceFailed':
      return `Standing order payment of ${str(data.date)} failed: ${str(data.reason)}`;
    case 'OccurrenceMissed':
      return `Standing order payment of ${str(data.date)} missed (the bank was down)`;
    case 'InterestRateScheduled':
      return `${account} rate ${typeof data.annualRate === 'number' ? formatAnnualRate(data.annualRate) : str(data.annualRate)} % a year from ${str(data.effectiveFrom)}`;
    default:
      return type;
  }
}

type Scalar = string | number | boolean | null;
const scalar = (value: unknown): Scalar =>
  value === undefined ? null : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null ? value : JSON.stringify(value);

/**
 * The values an event changed, before and after, read from the event alone: edits carry both; a money event carries
 * the balance after it and its amount, so the balance before is after ∓ amount. `hadPin` tells whether a payment
 * pin was set before (a PaymentPinSet does not say).
 */
export function changesOf(type: string, data: Record<string, unknown>, options: { hadPin?: boolean } = {}): FieldChange[] {
  switch (type) {
    case 'ProfileChanged': {
      const was = (data.before ?? {}) as Record<string, unknown>;
      const now = (data.after ?? {}) as Record<string, unknown>;
      return Object.keys(now).map((field) => ({ field, before: scalar(was[field]), after: scalar(now[field]) }));
    }
    case 'VerificationStatusSet':
      return [{ field: 'verificationStatus', before: scalar(data.previousStatus), after: scalar(data.status) }];
    case 'AccountNumberChanged':
      return [{ field: 'accountNumber', before: scalar(data.previous), after: scalar(data.next) }];
    case 'CustomerBlocked':
    case 'CustomerUnblocked':
      return [{ field: 'isBlocked', before: type === 'CustomerUnblocked', after: type === 'CustomerBlocked' }];
    case 'CustomerDisabled':
    case 'CustomerEnabled':
      return [{ field: 'isDisabled', before: type === 'CustomerEnabled', after: type === 'CustomerDisabled' }];
    case 'CustomerClosed':
    case 'AccountClosed':
      return [{ field: 'closed', before: false, after: true }];
    case 'PaymentPinSet':
      return [{ field: 'paymentPin', before: options.hadPin === undefined ? null : options.hadPin ? MASK : null, after: MASK }];
    case 'PasswordChanged':
      return [{ field: 'password', before: MASK, after: MASK }];
    case 'SecondFactorEnrolled':
      return [{ field: 'secondFactor', before: false, after: true }];
    case 'SecondFactorRemoved':
    case 'SecondFactorReset':
      return [{ field: 'secondFactor', before: true, after: false }];
    case 'BalanceAdjusted': {
      const previous = cents(data.previousCents);
      const next = cents(data.newCents);
      if (!isAccount(data.account) || previous === undefined || next === undefined) return [];
      return [{ field: data.account, before: centsToDollars(previous), after: centsToDollars(next) }];
    }
    default: {
      const after = cents(data.balanceAfterCents);
      const amount = cents(data.amountCents);
      if (!isAccount(data.account) || after === undefined || amount === undefined) return [];
      const before = data.direction === 'credit' ? after - amount : data.direction === 'debit' ? after + amount : undefined;
      if (before === undefined) return [];
      return [{ field: data.account, before: centsToDollars(before), after: centsToDollars(after) }];
    }
  }
}

function actorOf(event: RecordedEvent): AuditEvent['actor'] {
  const id = event.metadata.actorId;
  const role = event.metadata.actorRole;
  return { id: typeof id === 'string' ? id : null, role: typeof role === 'string' ? role : null };
}

function schemaVersionOf(event: RecordedEvent): number | undefined {
  const version = event.metadata.schemaVersion;
  return typeof version === 'number' ? version : undefined;
}

function balancesOf(state: CustomerLedgerState): AuditEvent['balances'] {
  const { account } = state;
  return account.status === 'unopened'
    ? { savings: 0, checking: 0 }
    : { savings: centsToDollars(account.balances.savings), checking: centsToDollars(account.balances.checking) };
}

/**
 * Presents a customer's events (in global order) for auditors: masked data, actor, time, position, summary,
 * the values each one changed and the balances after it, folding the customer's own two streams with the domain.
 */
export function presentEvents(store: Pick<EventStore, 'positionToken'>, userId: string, events: readonly RecordedEvent[]): AuditEvent[] {
  const ownStreams = new Set([`customer-${userId}`, `account-${userId}`]);
  let ledger: CustomerLedgerState = newCustomerLedger();
  return events.map((event) => {
    const own = ownStreams.has(event.streamId);
    const hadPin = ledger.customer.status !== 'unregistered' && ledger.customer.pinHash !== null;
    let problem: string | undefined;
    if (own) {
      const parsed = safeParseEvent(event.type, event.data, schemaVersionOf(event));
      if (parsed.ok) ledger = evolveCustomerLedger(ledger, parsed.event);
      else problem = parsed.error.message;
    }
    const data = maskSecrets(event.type, event.data);
    const actor = actorOf(event);
    return {
      id: event.id,
      position: store.positionToken(event.position),
      stream: event.streamId,
      revision: Number(event.revision),
      type: event.type,
      time: eventTime(event),
      actor,
      staff: actor.role === 'admin' || typeof event.data.adminId === 'string',
      data,
      summary: summarize(event.type, data),
      changes: own ? changesOf(event.type, event.data, { hadPin }) : [],
      balances: balancesOf(ledger),
      ...(problem ? { problem } : {}),
    };
  });
}

import { readDomainEvent } from '@bank/commands';
import { formatUsd, parseStreamName, type BankEvent, type Customer } from '@bank/domain';
import type { RecordedEvent } from '@bank/eventstore';
import type { OutgoingMessage } from './mailOutbox';
import { messageIdOf, type MessageKind } from './messageKinds';

/** The events the mail reactor reads (every other event sends nothing). */
export const MAIL_EVENT_TYPES: readonly string[] = [
  'CustomerRegistered',
  'ProfileChanged',
  'PasswordChanged',
  'SecondFactorEnrolled',
  'SecondFactorRemoved',
  'SecondFactorReset',
  'AccountCredited',
  'OccurrenceFailed',
  'StandingOrderSuspended',
];

/** What the reactor looks up to write a message (from the event store, never the lagging read models). */
export interface MailLookups {
  customer(userId: string): Promise<Customer | undefined>;
  /** The payer of an internal transfer (undefined when its record cannot be found). */
  transferPayer(transferId: string): Promise<string | undefined>;
  /** The payer, recipient and amount of a standing order. */
  standingOrder(orderId: string): Promise<{ payerId: string; recipientName: string; amountCents: number } | undefined>;
}

/** A password change made through a reset link carries this prefix in its request id (metadata). */
export const RESET_REQUEST_PREFIX = 'password-reset:';

export function formatInstant(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function message(kind: MessageKind, event: RecordedEvent, customer: Customer, data: Record<string, string>, to = customer.email, suffix = ''): OutgoingMessage {
  return { id: messageIdOf(kind, `${event.id}${suffix}`), kind, userId: customer.userId, to, data: { firstName: customer.firstName, ...data } };
}

/**
 * The messages one event sends (none for most). Pure but for the look-ups; whether the customer turned a notice off
 * is checked by the reactor.
 */
export async function messagesForEvent(event: RecordedEvent, lookups: MailLookups): Promise<OutgoingMessage[]> {
  const stream = parseStreamName(event.streamId);
  if (!stream) return [];
  const parsed: BankEvent = readDomainEvent(event);
  if (stream.category === 'customer') {
    const customer = await lookups.customer(stream.id);
    if (!customer || customer.status !== 'active') return [];
    switch (parsed.type) {
      case 'CustomerRegistered':
        // Staff are created by an admin or the CLI: no link to confirm (their address is the bank's to know).
        return parsed.data.role === 'customer' ? [message('verifyEmail', event, customer, {}, parsed.data.email)] : [];
      case 'ProfileChanged': {
        const before = parsed.data.before.email;
        const after = parsed.data.after.email;
        if (!after || !before || after.toLowerCase() === before.toLowerCase()) return [];
        return [
          message('verifyEmail', event, customer, {}, after),
          message('emailChanged', event, customer, { newEmail: after }, before),
        ];
      }
      case 'PasswordChanged': {
        const how = String(event.metadata.requestId ?? '').startsWith(RESET_REQUEST_PREFIX) ? 'reset' : 'changed';
        return [message('passwordChanged', event, customer, { how, at: formatInstant(parsed.data.occurredAt) })];
      }
      case 'SecondFactorEnrolled':
        return [message('secondFactorChanged', event, customer, { state: 'on', at: formatInstant(parsed.data.occurredAt) })];
      case 'SecondFactorRemoved':
        return [message('secondFactorChanged', event, customer, { state: 'off', at: formatInstant(parsed.data.occurredAt) })];
      case 'SecondFactorReset':
        return [message('secondFactorChanged', event, customer, { state: 'reset', at: formatInstant(parsed.data.occurredAt) })];
      default:
        return [];
    }
  }
  if (stream.category === 'account' && parsed.type === 'AccountCredited') {
    const data = parsed.data;
    // The month's interest payment: a credit carrying `interest` (the month paid).
    const interest = data.interest;
    if (!data.transferId && !interest) return [];
    const customer = await lookups.customer(stream.id);
    if (!customer || customer.status !== 'active' || customer.role !== 'customer') return [];
    const money = { amount: formatUsd(data.amountCents), account: data.account, last4: customer.accountNumber.slice(-4) };
    if (interest || !data.transferId) return [message('interestPaid', event, customer, { ...money, month: interest?.month ?? '' })];
    if (data.refundOf) {
      // The money of an external transfer came back (the ACH clearing account); internal refunds are not returns.
      return data.clearing === 'ach-outbound' || data.clearing === 'cash-at-fed' ? [message('transferReturned', event, customer, { ...money, description: data.description })] : [];
    }
    const payerId = await lookups.transferPayer(data.transferId);
    if (payerId === customer.userId) return [];
    const payer = payerId ? await lookups.customer(payerId) : undefined;
    return [message('moneyReceived', event, customer, { ...money, from: payer ? `${payer.firstName} ${payer.lastName}` : 'Another customer', description: data.description })];
  }
  if (stream.category === 'standingOrder' && (parsed.type === 'OccurrenceFailed' || parsed.type === 'StandingOrderSuspended')) {
    const order = await lookups.standingOrder(stream.id);
    const customer = order ? await lookups.customer(order.payerId) : undefined;
    if (!order || !customer || customer.status !== 'active') return [];
    const common = { amount: formatUsd(order.amountCents), recipient: order.recipientName, reason: parsed.data.reason };
    return parsed.type === 'OccurrenceFailed'
      ? [message('standingOrderFailed', event, customer, { ...common, date: parsed.data.date, suspended: 'false' })]
      : [message('standingOrderFailed', event, customer, { ...common, suspended: 'true' })];
  }
  return [];
}

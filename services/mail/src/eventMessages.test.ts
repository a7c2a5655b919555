import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Customer } from '@bank/domain';
import type { RecordedEvent } from '@bank/eventstore';
import { messagesForEvent, type MailLookups } from './eventMessages';

const at = '2026-03-01T10:00:00.000Z';
const payeeId = randomUUID();
const payerId = randomUUID();

function customer(userId: string, overrides: Partial<Customer> = {}): Customer {
  return {
    status: 'active',
    userId,
    firstName: userId === payerId ? 'Paula' : 'Quinn',
    lastName: 'Smith',
    email: `${userId}@example.com`,
    phone: '555',
    address: '1 Main',
    state: 'NY',
    passwordHash: 'x',
    accountNumber: '7000123456',
    role: 'customer',
    registeredAt: at,
    verificationStatus: 'awaiting',
    verification: null,
    profilePicture: null,
    pinHash: null,
    isBlocked: false,
    isDisabled: false,
    closedAt: null,
    cardRequests: [],
    secondFactor: null,
    ...overrides,
  } as Customer;
}

const people = new Map<string, Customer>([payeeId, payerId].map((id) => [id, customer(id)]));
const lookups: MailLookups = {
  customer: async (id) => people.get(id),
  transferPayer: async () => payerId,
  standingOrder: async () => ({ payerId, recipientName: 'Landlord', amountCents: 1200_00 }),
};

function recorded(streamId: string, type: string, data: Record<string, unknown>): RecordedEvent {
  return { id: randomUUID(), streamId, revision: 0n, position: { commit: 1n, prepare: 1n }, type, data, metadata: {}, created: new Date(at) };
}

const money = { transactionId: randomUUID(), account: 'checking', amountCents: 25_00, description: 'Refund: R01 Insufficient funds', occurredAt: at, balanceAfterCents: 25_00, direction: 'credit', status: 'completed' };

describe('the messages of an event', () => {
  it('an e-mail change: a link to the new address and a notice to the old one', async () => {
    const event = recorded(`customer-${payeeId}`, 'ProfileChanged', { before: { email: 'old@example.com' }, after: { email: 'new@example.com' }, changedBy: payeeId, occurredAt: at });
    const messages = await messagesForEvent(event, lookups);
    expect(messages.map((m) => [m.kind, m.to, m.id])).toEqual([
      ['verifyEmail', 'new@example.com', `verifyEmail.${event.id}`],
      ['emailChanged', 'old@example.com', `emailChanged.${event.id}`],
    ]);
    const phoneOnly = recorded(`customer-${payeeId}`, 'ProfileChanged', { before: { phone: '1' }, after: { phone: '2' }, changedBy: payeeId, occurredAt: at });
    expect(await messagesForEvent(phoneOnly, lookups)).toEqual([]);
  });

  it('staff registered: no confirmation link; a customer: one', async () => {
    const base = { userId: payeeId, firstName: 'Q', lastName: 'S', email: 'q@example.com', phone: '1', address: 'a', state: 's', passwordHash: 'x', accountNumber: '7000123456', registeredAt: at };
    expect(await messagesForEvent(recorded(`customer-${payeeId}`, 'CustomerRegistered', { ...base, role: 'admin' }), lookups)).toEqual([]);
    expect((await messagesForEvent(recorded(`customer-${payeeId}`, 'CustomerRegistered', { ...base, role: 'customer' }), lookups)).map((m) => m.kind)).toEqual(['verifyEmail']);
  });

  it('an external transfer refunded from the ACH clearing account: transferReturned; an internal refund: nothing', async () => {
    const returned = await messagesForEvent(recorded(`account-${payeeId}`, 'AccountCredited', { ...money, transferId: randomUUID(), refundOf: randomUUID(), clearing: 'ach-outbound' }), lookups);
    expect(returned).toMatchObject([{ kind: 'transferReturned', data: { amount: '$25.00', last4: '3456', account: 'checking' } }]);
    expect(await messagesForEvent(recorded(`account-${payeeId}`, 'AccountCredited', { ...money, transferId: randomUUID(), refundOf: randomUUID(), clearing: 'transfers-in-transit' }), lookups)).toEqual([]);
  });

  it('an interest payment (a credit marked `interest`): interestPaid; a staff credit without it: nothing', async () => {
    const paid = await messagesForEvent(recorded(`account-${payeeId}`, 'AccountCredited', { ...money, description: 'Interest', interest: { month: '2026-02', accruedUnits: '25000000000', carryUnits: '0' } }), lookups);
    expect(paid).toMatchObject([{ kind: 'interestPaid', data: { amount: '$25.00', last4: '3456', month: '2026-02' } }]);
    expect(await messagesForEvent(recorded(`account-${payeeId}`, 'AccountCredited', { ...money, description: 'Deposit' }), lookups)).toEqual([]);
  });

  it('a standing order: a failed payment and a suspension each notify the payer', async () => {
    const failed = await messagesForEvent(recorded(`standingOrder-${randomUUID()}`, 'OccurrenceFailed', { orderId: randomUUID(), occurredAt: at, date: '2026-03-01', reason: 'Insufficient funds' }), lookups);
    expect(failed).toMatchObject([{ kind: 'standingOrderFailed', to: `${payerId}@example.com`, data: { amount: '$1,200.00', recipient: 'Landlord', suspended: 'false', date: '2026-03-01' } }]);
    const suspended = await messagesForEvent(recorded(`standingOrder-${randomUUID()}`, 'StandingOrderSuspended', { orderId: randomUUID(), occurredAt: at, reason: 'Three failures in a row' }), lookups);
    expect(suspended).toMatchObject([{ kind: 'standingOrderFailed', data: { suspended: 'true' } }]);
  });

  it('second factor on, off and reset by staff: a security notice each', async () => {
    const off = await messagesForEvent(recorded(`customer-${payeeId}`, 'SecondFactorRemoved', { removedBy: payeeId, occurredAt: at }), lookups);
    const reset = await messagesForEvent(recorded(`customer-${payeeId}`, 'SecondFactorReset', { adminId: randomUUID(), reason: 'Lost phone', occurredAt: at }), lookups);
    expect([...off, ...reset].map((m) => [m.kind, m.data.state, m.data.at])).toEqual([
      ['secondFactorChanged', 'off', '2026-03-01 10:00 UTC'],
      ['secondFactorChanged', 'reset', '2026-03-01 10:00 UTC'],
    ]);
  });
});

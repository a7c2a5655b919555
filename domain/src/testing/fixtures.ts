/** Test fixtures (not exported from the package). */
import type { EventOf } from '../events/eventSchemas';

/** A deterministic valid UUID (v4 layout) from a number. */
export function uuid(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** A deterministic SHA-256 hex string. */
export function sha(n: number): string {
  return n.toString(16).padStart(64, '0');
}

export const NOW = '2025-06-01T10:00:00.000Z';
export const LATER = '2025-06-01T11:00:00.000Z';

export const CUSTOMER_ID = uuid(1);
export const ADMIN_ID = uuid(2);
export const PAYEE_ID = uuid(3);
export const ACCOUNT_NUMBER = '1234567890';
export const PAYEE_ACCOUNT_NUMBER = '5555555555';

export function registered(overrides: Partial<EventOf<'CustomerRegistered'>['data']> = {}): EventOf<'CustomerRegistered'> {
  return {
    type: 'CustomerRegistered',
    data: {
      userId: CUSTOMER_ID,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '555-0100',
      address: '1 Analytical Way',
      state: 'NY',
      passwordHash: '$2b$10$hash',
      accountNumber: ACCOUNT_NUMBER,
      role: 'customer',
      registeredAt: NOW,
      ...overrides,
    },
  };
}

export function opened(userId = CUSTOMER_ID, accountNumber = ACCOUNT_NUMBER): EventOf<'AccountOpened'> {
  return { type: 'AccountOpened', data: { userId, accountNumber, openedAt: NOW } };
}

export function pinSet(): EventOf<'PaymentPinSet'> {
  return { type: 'PaymentPinSet', data: { pinHash: '$2b$10$pin', adminId: ADMIN_ID, occurredAt: NOW } };
}

/** A staff credit posting: the usual way to fund an account in tests. */
export function funded(account: 'savings' | 'checking', amountCents: number, balanceAfterCents: number, transactionId = uuid(900 + amountCents % 97)): EventOf<'StaffTransactionPosted'> {
  return {
    type: 'StaffTransactionPosted',
    data: {
      transactionId,
      account,
      amountCents,
      direction: 'credit',
      description: 'Deposit',
      status: 'completed',
      occurredAt: NOW,
      balanceAfterCents,
      adminId: ADMIN_ID,
      postedAt: NOW,
    },
  };
}


import type { User } from '../../lib/api/types';

/** A customer as the API returns it, for tests. */
export function sampleUser(overrides: Partial<User> = {}): User {
  return {
    _id: '3b7c1f0e-9d7a-4a55-8a51-2f1a3c4d5e6f',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+1 303 555 0101',
    location: { address: '12 Market Street', state: 'Colorado' },
    account: { number: '1234567890', savings: 1250.5, checking: 320 },
    profilePicture: null,
    verificationStatus: 'verified',
    verification: null,
    isBlocked: false,
    isDisabled: false,
    hasPaymentPin: true,
    isAdmin: false,
    role: 'customer',
    createdAt: '2026-01-15T10:00:00.000Z',
    ...overrides,
  };
}

/** Puts a signed-in session into localStorage the way the app stores it (keys token and user). */
export function seedSession(user: User = sampleUser(), token = 'test-token'): void {
  localStorage.setItem('token', token);
  localStorage.setItem('user', JSON.stringify(user));
}

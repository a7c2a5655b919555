import type { TransactionStatus, VerificationStatus } from '../../../lib/api/types';

export const verificationLabels: Record<VerificationStatus, string> = {
  awaiting: 'Awaiting',
  pending: 'Pending',
  verified: 'Verified',
  failed: 'Failed',
};

export const verificationTone: Record<VerificationStatus, 'good' | 'warn' | 'bad' | 'neutral'> = {
  awaiting: 'neutral',
  pending: 'warn',
  verified: 'good',
  failed: 'bad',
};

export const statusTone: Record<TransactionStatus, 'good' | 'warn' | 'bad' | 'neutral'> = {
  completed: 'good',
  pending: 'warn',
  failed: 'bad',
  reversed: 'neutral',
};

export const statusLabels: Record<TransactionStatus, string> = {
  completed: 'Completed',
  pending: 'Pending',
  failed: 'Failed',
  reversed: 'Reversed',
};

/** "Grace Hopper", for headings and labels. */
export function fullName(user: { firstName: string; lastName: string }): string {
  return `${user.firstName} ${user.lastName}`.trim();
}

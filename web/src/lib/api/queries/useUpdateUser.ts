import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Envelope, User, VerificationStatus } from '../types';
import { queryKeys } from './queryKeys';

export interface UserChange {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  location: { address: string; state: string };
  verificationStatus: VerificationStatus;
  isBlocked: boolean;
  isDisabled: boolean;
  /** Sent only when the admin entered a new pin. */
  paymentPin?: string;
}

/** PUT /api/user/admin/:id: personal info, verification status, transfer block, sign-in block, payment pin. */
export function useUpdateUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: UserChange) => api.put<Partial<Envelope<User>>>(`/user/admin/${encodeURIComponent(id)}`, change),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.adminUsers() }),
  });
}

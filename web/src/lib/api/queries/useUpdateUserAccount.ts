import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Envelope, User } from '../types';
import { queryKeys } from './queryKeys';

export interface AccountChange {
  savings: number;
  checking: number;
  number: string;
  reason?: string;
}

/** PUT /api/user/admin/account/:id: sets the account number and both balances (each by an audited adjustment). */
export function useUpdateUserAccount(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: AccountChange) => api.put<Partial<Envelope<User>>>(`/user/admin/account/${encodeURIComponent(id)}`, change),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminUsers() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminUserTransactions(id) });
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../apiClient';
import { queryKeys } from './queryKeys';

/** DELETE /api/transaction/admin/:id: reverses the transaction (its balance effect is undone; it stays audited). */
export function useReverseTransaction(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (transactionId: string) => api.delete<{ message?: string }>(`/transaction/admin/${encodeURIComponent(transactionId)}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminUserTransactions(userId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminUser(userId) });
    },
  });
}

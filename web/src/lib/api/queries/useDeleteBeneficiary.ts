import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../apiClient';
import { queryKeys } from './queryKeys';

/** DELETE /api/beneficiaries/:id. */
export function useDeleteBeneficiary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message?: string }>(`/beneficiaries/${encodeURIComponent(id)}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.beneficiaries() }),
  });
}

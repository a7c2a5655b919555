import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../apiClient';
import { queryKeys } from './queryKeys';

/** DELETE /api/user/admin/:id: closes the customer (gone from lists; history kept for auditors). */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message?: string }>(`/user/admin/${encodeURIComponent(id)}`),
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.adminUser(id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminUserLists() });
    },
  });
}

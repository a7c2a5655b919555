import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../apiClient';
import { queryKeys } from './queryKeys';

/** DELETE /api/contacts/:id; answers 'Contact deleted'. */
export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ message?: string }>(`/contacts/${encodeURIComponent(id)}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.contacts() }),
  });
}

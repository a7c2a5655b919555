import { useQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Envelope, User } from '../types';
import { queryKeys } from './queryKeys';

/**
 * GET /api/user/admin/:id: one customer with their card requests. `enabled: false` once the customer is deleted,
 * so the page still on screen does not fetch them again (a 404) before it navigates away.
 */
export function useAdminUser(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.adminUser(id),
    enabled: options.enabled ?? true,
    queryFn: ({ signal }) => api.get<Envelope<User>>(`/user/admin/${encodeURIComponent(id)}`, { signal }).then((answer) => answer.data),
  });
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Envelope, User } from '../types';
import { queryKeys } from './queryKeys';

/** GET /api/user/admin?search: the customers, optionally filtered by a search text. */
export function useAdminUsers(search = '') {
  return useQuery<User[]>({
    queryKey: queryKeys.adminUserList(search),
    queryFn: ({ signal }) => api.get<Envelope<User[]>>('/user/admin', { query: { search: search.trim() }, signal }).then((answer) => answer.data),
    placeholderData: keepPreviousData,
  });
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Page } from '../paging';
import type { User } from '../types';
import { queryKeys } from './queryKeys';

/** The customers of one page of the admin's list. */
export const ADMIN_USERS_PAGE = 50;

/** GET /api/user/admin?search&limit&cursor: one page of the customers (keyset paged: `next` opens the following one). */
export function useAdminUserPage(search: string, cursor: string | undefined) {
  return useQuery<Page<User>>({
    queryKey: queryKeys.adminUserPage(search, cursor ?? ''),
    queryFn: ({ signal }) =>
      api.get<Page<User>>('/user/admin', { query: { search: search.trim(), limit: String(ADMIN_USERS_PAGE), ...(cursor ? { cursor } : {}) }, signal }),
    placeholderData: keepPreviousData,
  });
}

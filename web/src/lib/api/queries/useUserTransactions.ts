import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Page } from '../paging';
import type { Transaction } from '../types';
import { queryKeys } from './queryKeys';

/** The transactions of one page of a customer's list, for staff. */
export const USER_TRANSACTIONS_PAGE = 50;

/** GET /api/transaction/admin/:userId?limit&cursor: one page of a customer's transactions, newest first, for staff. */
export function useUserTransactions(userId: string, cursor?: string) {
  return useQuery<Page<Transaction>>({
    queryKey: queryKeys.adminUserTransactionPage(userId, cursor ?? ''),
    queryFn: ({ signal }) =>
      api.get<Page<Transaction>>(`/transaction/admin/${encodeURIComponent(userId)}`, {
        query: { limit: String(USER_TRANSACTIONS_PAGE), ...(cursor ? { cursor } : {}) },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

import { useQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Envelope, Transaction } from '../types';
import { queryKeys } from './queryKeys';

/** GET /api/transaction/admin/:userId: one customer's transactions, for staff. */
export function useUserTransactions(userId: string) {
  return useQuery({
    queryKey: queryKeys.adminUserTransactions(userId),
    queryFn: ({ signal }) =>
      api.get<Envelope<Transaction[]>>(`/transaction/admin/${encodeURIComponent(userId)}`, { signal }).then((answer) => answer.data),
  });
}

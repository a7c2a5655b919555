import { useQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Envelope, Transaction } from '../types';
import { useSession } from '../../session/SessionContext';
import { queryKeys } from './queryKeys';

/** GET /api/transaction: the customer's five most recent transactions. */
export function useRecentTransactions() {
  const userId = useSession().user?._id ?? 'anonymous';
  return useQuery({
    queryKey: queryKeys.recentTransactions(userId),
    queryFn: ({ signal }) => api.get<Envelope<Transaction[]>>('/transaction', { signal }).then((answer) => answer.data),
  });
}

import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../apiClient';
import type { Envelope, Transaction } from '../types';
import { useSession } from '../../session/SessionContext';
import { queryKeys } from './queryKeys';

export const HISTORY_PAGE_SIZE = 20;

/**
 * The cursor for the next page of GET /api/transaction/complete?limit&before: the id of the oldest transaction
 * shown so far. An id names one row, so the server can page on (date, id) without skipping rows that share a date.
 */
export function nextCursor(page: readonly Transaction[], limit: number): string | undefined {
  return page.length < limit ? undefined : page.at(-1)?._id;
}

/** GET /api/transaction/complete: every transaction of the customer, newest first, a page at a time. */
export function useTransactionHistory(limit = HISTORY_PAGE_SIZE) {
  const userId = useSession().user?._id ?? 'anonymous';
  return useInfiniteQuery({
    queryKey: queryKeys.transactionHistory(userId, limit),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get<Envelope<Transaction[]>>('/transaction/complete', { query: { limit, before: pageParam }, signal }).then((answer) => answer.data),
    getNextPageParam: (lastPage) => nextCursor(lastPage, limit),
  });
}

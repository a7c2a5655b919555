import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api/apiClient';
import type { TransferRequest } from '../../lib/api/queries/useTransfer';
import type { Envelope } from '../../lib/api/types';
import { useSession } from '../../lib/session/SessionContext';
import type { Schedule, StandingOrder } from './standingOrderTypes';

const ordersKey = (userId: string) => ['standing-orders', userId] as const;

/** GET /api/standing-orders: the signed-in customer's orders, newest first. */
export function useStandingOrders() {
  const userId = useSession().user?._id ?? 'anonymous';
  return useQuery({ queryKey: ordersKey(userId), queryFn: ({ signal }) => api.get<Envelope<StandingOrder[]>>('/standing-orders', { signal }).then((answer) => answer.data) });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  const userId = useSession().user?._id ?? 'anonymous';
  return () => {
    void queryClient.invalidateQueries({ queryKey: ordersKey(userId) });
    // A first payment made at once shows in the transactions and balances.
    void queryClient.invalidateQueries({ queryKey: ['transaction', userId] });
    void queryClient.invalidateQueries({ queryKey: ['auth', 'user', userId] });
  };
}

/** POST /api/standing-orders with an Idempotency-Key (one attempt creates one order). */
export function useCreateStandingOrder() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ request, idempotencyKey }: { request: TransferRequest & { schedule: Schedule }; idempotencyKey: string }) =>
      api.post<Envelope<StandingOrder>>('/standing-orders', request, { idempotencyKey }),
    onSuccess: invalidate,
  });
}

export type OrderChange = 'pause' | 'resume' | 'cancel';

/** Pause, resume (POST …/pause, …/resume) or cancel (DELETE) an order. */
export function useChangeStandingOrder() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: OrderChange }) =>
      change === 'cancel'
        ? api.delete<Envelope<StandingOrder>>(`/standing-orders/${id}`)
        : api.post<Envelope<StandingOrder>>(`/standing-orders/${id}/${change}`),
    onSuccess: invalidate,
  });
}

import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/Alert';
import { LoadingBlock } from '../../components/Spinner';
import { api } from '../../lib/api/apiClient';
import { errorMessage } from '../../lib/api/apiError';
import type { Envelope } from '../../lib/api/types';
import { StandingOrderList } from './StandingOrderList';
import type { StandingOrder } from './standingOrderTypes';
import './standingOrders.css';

/** Admin user page: a customer's standing orders (GET /api/user/admin/:id/standing-orders), read only. */
export function StaffStandingOrdersPanel({ userId, className }: { userId: string; className: string }) {
  const orders = useQuery({
    queryKey: ['admin', 'users', 'standing-orders', userId] as const,
    queryFn: ({ signal }) => api.get<Envelope<StandingOrder[]>>(`/user/admin/${userId}/standing-orders`, { signal }).then((answer) => answer.data),
  });
  const headingId = `standing-orders-heading-${userId}`;
  return (
    <section className={className} aria-labelledby={headingId}>
      <h2 id={headingId}>Standing orders</h2>
      {orders.isPending ? <LoadingBlock label="Loading the standing orders…" /> : null}
      {orders.isError ? <Alert kind="error">{errorMessage(orders.error)}</Alert> : null}
      {orders.isSuccess ? <StandingOrderList orders={orders.data} /> : null}
    </section>
  );
}

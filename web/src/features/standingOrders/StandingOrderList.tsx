import { Alert } from '../../components/Alert';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { formatMoney } from '../../components/money';
import { describeSchedule, type StandingOrder } from './standingOrderTypes';
import type { OrderChange } from './useStandingOrders';

const statusLabel = { active: 'Active', paused: 'Paused', suspended: 'Suspended', cancelled: 'Cancelled' } as const;
const occurrenceLabel = { paid: 'Paid', failed: 'Failed', missed: 'Missed' } as const;

export interface StandingOrderListProps {
  orders: readonly StandingOrder[];
  busy?: boolean;
  /** Pause / resume / cancel (the customer's own list); without it the list only shows (staff). */
  onChange?: (id: string, change: OrderChange) => void;
}

/** The customer's orders: to whom, how much, when next, the latest payments, and pause / resume / cancel. */
export function StandingOrderList({ orders, busy = false, onChange }: StandingOrderListProps) {
  if (orders.length === 0) {
    return <EmptyState title="No standing orders yet">{onChange ? 'Create one to pay rent, savings or a subscription on its own.' : null}</EmptyState>;
  }
  return (
    <ul className="standing-order-list">
      {orders.map((order) => (
        <li key={order._id} className="portal-card standing-order" aria-label={`${formatMoney(order.amount)} to ${order.recipientName || order.accountNumber}`}>
          <div className="standing-order-head">
            <strong>
              {formatMoney(order.amount)} to {order.recipientName || order.accountNumber}
            </strong>
            <span className={`status-badge status-${order.status}`}>{statusLabel[order.status]}</span>
          </div>
          <p>
            {describeSchedule(order.schedule)} · from {order.from} · {order.description || 'no description'}
          </p>
          <p>{order.nextDate ? `Next payment: ${order.nextDate}` : 'No payment planned'}</p>
          {order.status === 'suspended' && order.suspendedReason ? <Alert kind="error">Suspended: {order.suspendedReason}. Resume it once the money is there.</Alert> : null}
          {order.occurrences.length > 0 ? (
            <table className="standing-order-occurrences">
              <caption>Latest payments</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Status</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {order.occurrences.map((occurrence) => (
                  <tr key={occurrence.date}>
                    <td>{occurrence.date}</td>
                    <td>{occurrenceLabel[occurrence.status]}</td>
                    <td>{occurrence.reason ?? (occurrence.transferId ? `Transfer ${occurrence.transferId.slice(0, 8)}` : 'The bank was unavailable')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {onChange && order.status !== 'cancelled' ? (
            <div className="form-actions">
              {order.status === 'active' ? (
                <Button variant="secondary" disabled={busy} onClick={() => onChange(order._id, 'pause')}>
                  Pause
                </Button>
              ) : (
                <Button variant="secondary" disabled={busy} onClick={() => onChange(order._id, 'resume')}>
                  Resume
                </Button>
              )}
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() => {
                  if (window.confirm('Cancel this standing order? No further payment will be made.')) onChange(order._id, 'cancel');
                }}
              >
                Cancel order
              </Button>
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

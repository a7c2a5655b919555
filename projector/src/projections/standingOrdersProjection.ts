import type { ProjectedEvent, ProjectionDb } from './projection';
import { defineProjection } from './projection';

/** rm.standing_orders: streams `standingOrder-<id>`. The order's stream stays the truth the runner decides on. */

function occurrence(status: 'paid' | 'failed' | 'missed') {
  return (event: ProjectedEvent<'OccurrencePaid' | 'OccurrenceFailed' | 'OccurrenceMissed'>, db: ProjectionDb): void => {
    db.update('standing_orders', event.data.orderId, { last_occurrence_date: event.data.date, last_occurrence_status: status });
  };
}

function status(value: 'active' | 'paused' | 'cancelled' | 'suspended') {
  return (event: ProjectedEvent<'StandingOrderPaused' | 'StandingOrderResumed' | 'StandingOrderCancelled' | 'StandingOrderSuspended'>, db: ProjectionDb): void => {
    db.update('standing_orders', event.data.orderId, { status: value });
  };
}

export const standingOrdersProjection = defineProjection({
  name: 'standing_orders',
  tables: { standing_orders: {} },
  handlers: {
    StandingOrderCreated(event, db) {
      const d = event.data;
      db.insert('standing_orders', {
        id: d.orderId,
        payer_id: d.payerId,
        status: 'active',
        from_account: d.from,
        account_number: d.accountNumber,
        recipient_name: d.recipientName,
        amount_cents: d.amountCents,
        description: d.description,
        frequency: d.schedule.frequency,
        day: d.schedule.day,
        first_date: d.schedule.firstDate,
        end_date: d.schedule.endDate ?? null,
        payment_count: d.schedule.count ?? null,
        created_at: d.createdAt,
      });
    },
    StandingOrderPaused: status('paused'),
    StandingOrderResumed: status('active'),
    StandingOrderCancelled: status('cancelled'),
    StandingOrderSuspended: status('suspended'),
    OccurrencePaid: occurrence('paid'),
    OccurrenceFailed: occurrence('failed'),
    OccurrenceMissed: occurrence('missed'),
  },
});

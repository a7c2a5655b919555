import { transactionKindOf, type EventOf } from '@bank/domain';
import { defineProjection, streamOwner, type ProjectedEvent, type ProjectionDb } from './projection';

type MoneyEventType = 'AccountCredited' | 'AccountDebited' | 'BalanceAdjusted' | 'StaffTransactionPosted' | 'TransactionReversed';
type MoneyEvent = EventOf<MoneyEventType>;

function insertTransaction(event: ProjectedEvent<MoneyEventType>, db: ProjectionDb): void {
  const d = event.data;
  const money = { type: event.type, data: event.data } as MoneyEvent;
  db.insert('transactions', {
    id: d.transactionId,
    user_id: streamOwner(event),
    account: d.account,
    direction: d.direction,
    amount_cents: d.amountCents,
    description: d.description,
    date: d.occurredAt,
    status: d.status,
    balance_after_cents: d.balanceAfterCents,
    transfer_id: d.transferId ?? null,
    kind: transactionKindOf(money),
    event_type: event.type,
    actor_id: 'adminId' in d ? d.adminId : null,
    reason: 'reason' in d ? d.reason : null,
    reversal_of: 'reversedTransactionId' in d ? d.reversedTransactionId : null,
    refund_of: 'refundOf' in d ? (d.refundOf ?? null) : null,
    created_at: event.created,
    created_position: event.positionText,
  });
}

/** rm.transactions: one row per money event; status changes and reversals update the original row. */
export const transactionsProjection = defineProjection({
  name: 'transactions',
  tables: { transactions: { keyAfterLoad: true } },
  handlers: {
    AccountCredited: insertTransaction,
    AccountDebited: insertTransaction,
    BalanceAdjusted: insertTransaction,
    StaffTransactionPosted: insertTransaction,
    TransactionReversed(event, db) {
      insertTransaction(event, db);
      db.update('transactions', event.data.reversedTransactionId, { status: 'reversed', reversed_by: event.data.transactionId });
    },
    TransactionStatusChanged(event, db) {
      db.update('transactions', event.data.transactionId, { status: event.data.status });
    },
  },
});

import type { EventOf } from '@bank/domain';
import { defineProjection, updateExistingRow, streamOwner, type ProjectedEvent, type ProjectionDb } from './projection';

type MoneyEventType = 'AccountCredited' | 'AccountDebited' | 'BalanceAdjusted' | 'StaffTransactionPosted' | 'TransactionReversed';
type MoneyEvent = EventOf<MoneyEventType>;

/** The read model's `kind` of a money event. */
export function transactionKind(event: MoneyEvent): 'transfer' | 'staff' | 'adjustment' | 'reversal' | 'refund' | 'credit' | 'debit' {
  switch (event.type) {
    case 'AccountCredited':
      if (event.data.refundOf !== undefined) return 'refund';
      return event.data.transferId === undefined ? 'credit' : 'transfer';
    case 'AccountDebited':
      return event.data.transferId === undefined ? 'debit' : 'transfer';
    case 'BalanceAdjusted':
      return 'adjustment';
    case 'StaffTransactionPosted':
      return 'staff';
    case 'TransactionReversed':
      return 'reversal';
  }
}

async function insertTransaction(event: ProjectedEvent<MoneyEventType>, db: ProjectionDb): Promise<void> {
  const d = event.data;
  const money = { type: event.type, data: event.data } as MoneyEvent;
  await db.execute(
      `INSERT INTO ${db.tables.transactions} (id, user_id, account, direction, amount_cents, description, date, status,
       balance_after_cents, transfer_id, kind, event_type, actor_id, reason, reversal_of, refund_of, created_at,
       created_position, last_position)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18)
     ON CONFLICT (id) DO NOTHING`,
    [
      d.transactionId,
      streamOwner(event),
      d.account,
      d.direction,
      d.amountCents,
      d.description,
      d.occurredAt,
      d.status,
      d.balanceAfterCents,
      d.transferId ?? null,
      transactionKind(money),
      event.type,
      'adminId' in d ? d.adminId : null,
      'reason' in d ? d.reason : null,
      'reversedTransactionId' in d ? d.reversedTransactionId : null,
      'refundOf' in d ? (d.refundOf ?? null) : null,
      event.created,
      event.positionText,
    ],
  );
}

/** rm.transactions: one row per money event; status changes and reversals update the original row. */
export const transactionsProjection = defineProjection('transactions', {
  AccountCredited: insertTransaction,
  AccountDebited: insertTransaction,
  BalanceAdjusted: insertTransaction,
  StaffTransactionPosted: insertTransaction,

  async TransactionReversed(event, db) {
    await insertTransaction(event, db);
    const original = event.data.reversedTransactionId;
    await updateExistingRow(
      db,
      event,
      db.tables.transactions,
      original,
      `UPDATE ${db.tables.transactions} SET status = 'reversed', reversed_by = $3, last_position = $2
        WHERE id = $1 AND last_position < $2`,
      [original, event.positionText, event.data.transactionId],
    );
  },

  async TransactionStatusChanged(event, db) {
    const id = event.data.transactionId;
    await updateExistingRow(
      db,
      event,
      db.tables.transactions,
      id,
      `UPDATE ${db.tables.transactions} SET status = $3, last_position = $2 WHERE id = $1 AND last_position < $2`,
      [id, event.positionText, event.data.status],
    );
  },
});

import type { BankEventType } from '@bank/domain';
import { defineProjection, updateExistingRow, type ProjectedEvent, type ProjectionDb } from './projection';

type StepType = 'TransferDebited' | 'TransferCredited' | 'TransferSent' | 'TransferSettled' | 'TransferFailed' | 'TransferRefunded';

const statusOf: Record<StepType, string> = {
  TransferDebited: 'debited',
  TransferCredited: 'credited',
  TransferSent: 'sent',
  TransferSettled: 'settled',
  TransferFailed: 'failed',
  TransferRefunded: 'refunded',
};

function step<K extends StepType & BankEventType>(type: K) {
  return async (event: ProjectedEvent<K>, db: ProjectionDb): Promise<void> => {
    const d = event.data as { transferId: string; occurredAt: string; reason?: string };
    await updateExistingRow(
      db,
      event,
      db.tables.transfers,
      d.transferId,
      `UPDATE ${db.tables.transfers}
          SET status = $3, failure_reason = COALESCE($4, failure_reason), updated_at = $5, last_position = $2
        WHERE id = $1 AND last_position < $2`,
      [d.transferId, event.positionText, statusOf[type], d.reason ?? null, d.occurredAt],
    );
  };
}

/** rm.transfers: one row per transfer stream, its status following the process. */
export const transfersProjection = defineProjection('transfers', {
  async TransferRequested(event, db) {
    const d = event.data;
    await db.execute(
      `INSERT INTO ${db.tables.transfers} (id, payer_id, payee_id, from_account, to_account, amount_cents, account_number,
         bank_name, routing_number, recipient_name, description, internal, status, debit_transaction_id,
         credit_transaction_id, refund_transaction_id, requested_at, updated_at, last_position)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'requested', $13, $14, $15, $16, $16, $17)
       ON CONFLICT (id) DO NOTHING`,
      [
        d.transferId,
        d.payerId,
        d.payeeId ?? null,
        d.from,
        d.accountType,
        d.amountCents,
        d.accountNumber,
        d.bankName,
        d.routingNumber,
        d.recipientName,
        d.description,
        d.internal,
        d.debitTransactionId,
        d.creditTransactionId ?? null,
        d.refundTransactionId,
        d.requestedAt,
        event.positionText,
      ],
    );
  },
  TransferDebited: step('TransferDebited'),
  TransferCredited: step('TransferCredited'),
  TransferSent: step('TransferSent'),
  TransferSettled: step('TransferSettled'),
  TransferFailed: step('TransferFailed'),
  TransferRefunded: step('TransferRefunded'),
});

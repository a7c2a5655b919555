import type { BankEventType } from '@bank/domain';
import { defineProjection, type ProjectionHandler } from './projection';

type StepType = 'TransferDebited' | 'TransferCredited' | 'TransferSent' | 'TransferSettled' | 'TransferFailed' | 'TransferRefunded';

const statusOf: Record<StepType, string> = {
  TransferDebited: 'debited',
  TransferCredited: 'credited',
  TransferSent: 'sent',
  TransferSettled: 'settled',
  TransferFailed: 'failed',
  TransferRefunded: 'refunded',
};

/** A step of the transfer's process: its status, and the reason when it failed. */
function step<K extends StepType & BankEventType>(type: K): ProjectionHandler<K> {
  return (event, db) => {
    const d = event.data as { transferId: string; occurredAt: string; reason?: string };
    db.update('transfers', d.transferId, { status: statusOf[type], updated_at: d.occurredAt, ...(d.reason === undefined ? {} : { failure_reason: d.reason }) });
  };
}

/** rm.transfers: one row per transfer stream, its status following the process. */
export const transfersProjection = defineProjection({
  name: 'transfers',
  tables: { transfers: {} },
  handlers: {
    TransferRequested(event, db) {
      const d = event.data;
      db.insert('transfers', {
        id: d.transferId,
        payer_id: d.payerId,
        payee_id: d.payeeId ?? null,
        from_account: d.from,
        to_account: d.accountType,
        amount_cents: d.amountCents,
        account_number: d.accountNumber,
        bank_name: d.bankName,
        routing_number: d.routingNumber,
        recipient_name: d.recipientName,
        description: d.description,
        internal: d.internal,
        status: 'requested',
        debit_transaction_id: d.debitTransactionId,
        credit_transaction_id: d.creditTransactionId ?? null,
        refund_transaction_id: d.refundTransactionId,
        requested_at: d.requestedAt,
        updated_at: d.requestedAt,
      });
    },
    TransferDebited: step('TransferDebited'),
    TransferCredited: step('TransferCredited'),
    TransferSent: step('TransferSent'),
    TransferSettled: step('TransferSettled'),
    TransferFailed: step('TransferFailed'),
    TransferRefunded: step('TransferRefunded'),
  },
});

import { achFileNameOf } from '@bank/domain';
import { defineProjection } from './projection';

/** rm.ach_files and rm.ach_entries: the ACH file cycle from the `achFiles` stream (docs/ach.md). */
export const achProjection = defineProjection({
  name: 'ach',
  tables: { ach_files: {}, ach_entries: {} },
  handlers: {
    AchFileBuilt(event, db) {
      const d = event.data;
      db.insert('ach_files', {
        id: d.fileId,
        created_at: d.createdAt,
        business_date: d.businessDate,
        effective_date: d.effectiveDate,
        entry_count: d.entries.length,
        total_debit_cents: d.totalDebitCents,
        total_credit_cents: d.totalCreditCents,
        status: 'created',
        sha256: d.sha256,
        name: achFileNameOf(d.createdAt, d.fileId),
        content: d.text,
        location: null,
        transmitted_at: null,
        settled_at: null,
      });
      d.entries.forEach((entry, index) => {
        db.insert('ach_entries', {
          trace_number: entry.traceNumber,
          file_id: d.fileId,
          position_in_file: index,
          transfer_id: entry.transferId,
          amount_cents: entry.amountCents,
          routing_number: entry.routingNumber,
          account_number: entry.accountNumber,
          name: entry.name,
          transaction_code: entry.transactionCode,
          returned_reason: null,
        });
      });
    },
    AchFileTransmitted(event, db) {
      const d = event.data;
      db.update('ach_files', d.fileId, { status: 'transmitted', location: d.location, transmitted_at: d.transmittedAt });
    },
    AchFileSettled(event, db) {
      db.update('ach_files', event.data.fileId, { settled_at: event.data.settledAt });
    },
    AchReturnApplied(event, db) {
      db.update('ach_entries', event.data.originalTraceNumber, { returned_reason: event.data.reasonCode });
    },
  },
});

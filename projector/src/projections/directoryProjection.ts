import { defineProjection, updateExistingRow } from './projection';

/** rm.beneficiaries (stream `beneficiaries`) and rm.contacts (streams `contact-<id>`); removals are soft. */
export const directoryProjection = defineProjection('directory', {
  async BeneficiaryAdded(event, db) {
    const d = event.data;
    // Upsert: an id added again after its removal comes back.
    await db.execute(
      `INSERT INTO ${db.tables.beneficiaries} AS b (id, name, account_number, bank_name, added_by, created_at, last_position)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, account_number = EXCLUDED.account_number,
         bank_name = EXCLUDED.bank_name, added_by = EXCLUDED.added_by, created_at = EXCLUDED.created_at,
         removed_at = NULL, removed_by = NULL, last_position = EXCLUDED.last_position
       WHERE b.last_position < EXCLUDED.last_position`,
      [d.beneficiaryId, d.name, d.accountNumber, d.bankName ?? null, d.adminId, d.occurredAt, event.positionText],
    );
  },

  async BeneficiaryRemoved(event, db) {
    const d = event.data;
    await updateExistingRow(
      db,
      event,
      db.tables.beneficiaries,
      d.beneficiaryId,
      `UPDATE ${db.tables.beneficiaries} SET removed_at = $3, removed_by = $4, last_position = $2
        WHERE id = $1 AND last_position < $2`,
      [d.beneficiaryId, event.positionText, d.occurredAt, d.adminId],
    );
  },

  async ContactMessageReceived(event, db) {
    const d = event.data;
    await db.execute(
      `INSERT INTO ${db.tables.contacts} (id, name, email, phone, subject, message, created_at, last_position)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
      [d.contactId, d.name, d.email, d.phone, d.subject, d.message, d.receivedAt, event.positionText],
    );
  },

  async ContactMessageDeleted(event, db) {
    const d = event.data;
    await updateExistingRow(
      db,
      event,
      db.tables.contacts,
      d.contactId,
      `UPDATE ${db.tables.contacts} SET deleted_at = $3, deleted_by = $4, last_position = $2
        WHERE id = $1 AND last_position < $2`,
      [d.contactId, event.positionText, d.occurredAt, d.adminId],
    );
  },
});

import { defineProjection } from './projection';

/** rm.beneficiaries (stream `beneficiaries`) and rm.contacts (streams `contact-<id>`); removals are soft. */
export const directoryProjection = defineProjection({
  name: 'directory',
  tables: { beneficiaries: {}, contacts: {} },
  handlers: {
    BeneficiaryAdded(event, db) {
      const d = event.data;
      // Upsert: an id added again after its removal comes back.
      db.upsert('beneficiaries', {
        id: d.beneficiaryId,
        name: d.name,
        account_number: d.accountNumber,
        bank_name: d.bankName ?? null,
        added_by: d.adminId,
        created_at: d.occurredAt,
        removed_at: null,
        removed_by: null,
      });
    },
    BeneficiaryRemoved(event, db) {
      db.update('beneficiaries', event.data.beneficiaryId, { removed_at: event.data.occurredAt, removed_by: event.data.adminId });
    },
    ContactMessageReceived(event, db) {
      const d = event.data;
      db.insert('contacts', { id: d.contactId, name: d.name, email: d.email, phone: d.phone, subject: d.subject, message: d.message, created_at: d.receivedAt });
    },
    ContactMessageDeleted(event, db) {
      db.update('contacts', event.data.contactId, { deleted_at: event.data.occurredAt, deleted_by: event.data.adminId });
    },
  },
});

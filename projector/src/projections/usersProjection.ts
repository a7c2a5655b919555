import type { BankEventType, ProfileFields } from '@bank/domain';
import { defineProjection, updateExistingRow, streamOwner, type ProjectedEvent, type ProjectionDb } from './projection';

const profileColumns: Record<keyof ProfileFields, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phone: 'phone',
  address: 'address',
  state: 'state',
};

/**
 * Sets columns of one user, guarded by `last_position` (idempotent), and stamps `updated_at`.
 * `set` maps column → value; `email` also sets `email_lower`.
 */
async function updateUser(db: ProjectionDb, event: ProjectedEvent, at: string, set: Record<string, unknown>): Promise<void> {
  const userId = streamOwner(event);
  const columns = Object.keys(set);
  const values: unknown[] = [userId, event.positionText, at, ...Object.values(set)];
  const assignments = columns.map((column, index) => `${column} = $${index + 4}`);
  if ('email' in set) assignments.push(`email_lower = lower($${columns.indexOf('email') + 4})`);
  await updateExistingRow(
    db,
    event,
    db.tables.users,
    userId,
    `UPDATE ${db.tables.users} SET ${[...assignments, 'last_position = $2', 'updated_at = $3'].join(', ')}
      WHERE id = $1 AND last_position < $2`,
    values,
  );
}

type Handler<K extends BankEventType> = (event: ProjectedEvent<K>, db: ProjectionDb) => Promise<void>;

function flag<K extends 'CustomerBlocked' | 'CustomerUnblocked' | 'CustomerDisabled' | 'CustomerEnabled'>(column: string, value: boolean): Handler<K> {
  return (event, db) => updateUser(db, event, event.data.occurredAt, { [column]: value });
}

/** rm.users: one row per customer stream (customers and staff). */
export const usersProjection = defineProjection('users', {
  async CustomerRegistered(event, db) {
    const d = event.data;
    await db.execute(
      `INSERT INTO ${db.tables.users} (id, first_name, last_name, email, email_lower, phone, address, state, account_number, role,
         password_hash, created_at, updated_at, last_position)
       VALUES ($1, $2, $3, $4, lower($4), $5, $6, $7, $8, $9, $10, $11, $11, $12)
       ON CONFLICT (id) DO NOTHING`,
      [d.userId, d.firstName, d.lastName, d.email, d.phone, d.address, d.state, d.accountNumber, d.role, d.passwordHash, d.registeredAt, event.positionText],
    );
  },

  async ProfileChanged(event, db) {
    const set: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(event.data.after)) {
      const column = profileColumns[field as keyof ProfileFields];
      if (column && value !== undefined) set[column] = value;
    }
    await updateUser(db, event, event.data.occurredAt, set);
  },

  PasswordChanged: (event, db) => updateUser(db, event, event.data.occurredAt, { password_hash: event.data.passwordHash }),

  async VerificationSubmitted(event, db) {
    const d = event.data;
    const verification = {
      documentType: d.documentType,
      passport: d.passport,
      documentFront: d.documentFront,
      documentBack: d.documentBack,
      dateOfBirth: d.dateOfBirth,
      submittedAt: d.submittedAt,
    };
    await updateUser(db, event, d.submittedAt, { verification_status: 'pending', verification: JSON.stringify(verification) });
  },

  VerificationStatusSet: (event, db) => updateUser(db, event, event.data.occurredAt, { verification_status: event.data.status }),
  ProfilePictureSet: (event, db) => updateUser(db, event, event.data.occurredAt, { profile_picture_file_id: event.data.fileId }),
  PaymentPinSet: (event, db) => updateUser(db, event, event.data.occurredAt, { payment_pin_hash: event.data.pinHash, has_payment_pin: true }),
  CustomerBlocked: flag('is_blocked', true),
  CustomerUnblocked: flag('is_blocked', false),
  CustomerDisabled: flag('is_disabled', true),
  CustomerEnabled: flag('is_disabled', false),
  AccountNumberChanged: (event, db) => updateUser(db, event, event.data.occurredAt, { account_number: event.data.next }),
  CustomerClosed: (event, db) => updateUser(db, event, event.data.closedAt, { is_closed: true, closed_at: event.data.closedAt }),
});

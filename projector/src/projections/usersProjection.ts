import type { BankEventType, ProfileFields } from '@bank/domain';
import { defineProjection, streamOwner, type ProjectedEvent, type ProjectionDb, type ProjectionHandler, type Row } from './projection';

const profileColumns: Record<keyof ProfileFields, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phone: 'phone',
  address: 'address',
  state: 'state',
};

/** Sets columns of the stream's user and stamps `updated_at`; a new e-mail also sets `email_lower`. */
function updateUser(db: ProjectionDb, event: ProjectedEvent, at: string, set: Record<string, unknown>): void {
  const changes: Record<string, unknown> = { ...set, updated_at: at };
  if (typeof set.email === 'string') changes.email_lower = lowerEmail(set.email);
  db.update('users', streamOwner(event), changes);
}

/**
 * The e-mail as the API looks it up (`WHERE email_lower = lower($1)`). The write side stores e-mails already
 * normalised by the domain's normalizeEmail (toLowerCase), so this is the same lower case the domain uses for an
 * e-mail's identity; on ASCII it is exactly PostgreSQL's lower().
 */
function lowerEmail(email: string): string {
  return email.toLowerCase();
}

function flag<K extends 'CustomerBlocked' | 'CustomerUnblocked' | 'CustomerDisabled' | 'CustomerEnabled'>(column: string, value: boolean): ProjectionHandler<K> {
  return (event, db) => updateUser(db, event, event.data.occurredAt, { [column]: value });
}

type Handlers = { [K in BankEventType]?: ProjectionHandler<K> };

const handlers: Handlers = {
  CustomerRegistered(event, db) {
    const d = event.data;
    const row: Row = {
      id: d.userId,
      first_name: d.firstName,
      last_name: d.lastName,
      email: d.email,
      email_lower: lowerEmail(d.email),
      phone: d.phone,
      address: d.address,
      state: d.state,
      account_number: d.accountNumber,
      role: d.role,
      password_hash: d.passwordHash,
      created_at: d.registeredAt,
      updated_at: d.registeredAt,
    };
    db.insert('users', row);
  },
  ProfileChanged(event, db) {
    const set: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(event.data.after)) {
      const column = profileColumns[field as keyof ProfileFields];
      if (column && value !== undefined) set[column] = value;
    }
    updateUser(db, event, event.data.occurredAt, set);
  },
  PasswordChanged: (event, db) => updateUser(db, event, event.data.occurredAt, { password_hash: event.data.passwordHash }),
  VerificationSubmitted(event, db) {
    const d = event.data;
    const verification = {
      documentType: d.documentType,
      passport: d.passport,
      documentFront: d.documentFront,
      documentBack: d.documentBack,
      dateOfBirth: d.dateOfBirth,
      submittedAt: d.submittedAt,
    };
    updateUser(db, event, d.submittedAt, { verification_status: 'pending', verification });
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
  // The second factor is read from the user's own stream (its secret never reaches a read model): these only
  // mark the user as changed.
  SecondFactorEnrolled: (event, db) => updateUser(db, event, event.data.occurredAt, {}),
  SecondFactorRemoved: (event, db) => updateUser(db, event, event.data.occurredAt, {}),
  SecondFactorReset: (event, db) => updateUser(db, event, event.data.occurredAt, {}),
  RecoveryCodeUsed: (event, db) => updateUser(db, event, event.data.occurredAt, {}),
};

/** rm.users: one row per customer stream (customers and staff). */
export const usersProjection = defineProjection({ name: 'users', tables: { users: {} }, handlers });

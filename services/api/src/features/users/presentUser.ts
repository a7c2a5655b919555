import { centsToDollars, type Customer, type Role, type VerificationStatus } from '@bank/domain';
import type { CardRequestJson, UserJson } from './userShape';

/** The url of a stored file. */
export function fileUrl(fileId: string): { url: string } {
  return { url: `/api/files/${fileId}` };
}

/** A row of rm.users joined with rm.accounts (balances null for users without an account, e.g. staff). */
export interface UserRow {
  readonly id: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly phone: string;
  readonly address: string;
  readonly state: string;
  readonly account_number: string;
  readonly role: Role;
  readonly has_payment_pin: boolean;
  readonly verification_status: VerificationStatus;
  readonly verification: { documentType: string; documentFront: { fileId: string }; documentBack: { fileId: string } } | null;
  readonly profile_picture_file_id: string | null;
  readonly is_blocked: boolean;
  readonly is_disabled: boolean;
  readonly created_at: Date;
  /** int8 arrives as a string. */
  readonly savings_cents: string | null;
  readonly checking_cents: string | null;
}

/** The columns presentUser needs, for `SELECT ${USER_COLUMNS} FROM rm.users u LEFT JOIN rm.accounts a ...`. */
export const USER_COLUMNS = `u.id, u.first_name, u.last_name, u.email, u.phone, u.address, u.state, u.account_number, u.role,
  u.has_payment_pin, u.verification_status, u.verification, u.profile_picture_file_id, u.is_blocked, u.is_disabled,
  u.created_at, a.savings_cents, a.checking_cents`;

export const USERS_FROM = 'rm.users u LEFT JOIN rm.accounts a ON a.user_id = u.id';

export function presentUser(row: UserRow): UserJson {
  const verification = row.verification;
  return {
    _id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    location: { address: row.address, state: row.state },
    account: {
      number: row.account_number,
      savings: centsToDollars(Number(row.savings_cents ?? 0)),
      checking: centsToDollars(Number(row.checking_cents ?? 0)),
    },
    profilePicture: row.profile_picture_file_id ? fileUrl(row.profile_picture_file_id) : null,
    verificationStatus: row.verification_status,
    verification: verification
      ? { documentType: verification.documentType, documentFront: fileUrl(verification.documentFront.fileId), documentBack: fileUrl(verification.documentBack.fileId) }
      : null,
    isBlocked: row.is_blocked,
    isDisabled: row.is_disabled,
    hasPaymentPin: row.has_payment_pin,
    isAdmin: row.role === 'admin',
    role: row.role,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * The same shape from the write model's state, for the rare answer that cannot wait for the projector any longer
 * (it timed out): balances as given (0 for a new account).
 */
export function presentCustomerState(customer: Customer, balances = { savings: 0, checking: 0 }): UserJson {
  return {
    _id: customer.userId,
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: customer.email,
    phone: customer.phone,
    location: { address: customer.address, state: customer.state },
    account: { number: customer.accountNumber, savings: centsToDollars(balances.savings), checking: centsToDollars(balances.checking) },
    profilePicture: customer.profilePicture ? fileUrl(customer.profilePicture.fileId) : null,
    verificationStatus: customer.verificationStatus,
    verification: customer.verification
      ? {
          documentType: customer.verification.documentType,
          documentFront: fileUrl(customer.verification.documentFront.fileId),
          documentBack: fileUrl(customer.verification.documentBack.fileId),
        }
      : null,
    isBlocked: customer.isBlocked,
    isDisabled: customer.isDisabled,
    hasPaymentPin: customer.pinHash !== null,
    isAdmin: customer.role === 'admin',
    role: customer.role,
    createdAt: new Date(customer.registeredAt).toISOString(),
  };
}

export interface CardRequestRow {
  readonly id: string;
  readonly card_type: string | null;
  readonly status: string;
  readonly requested_at: Date;
}

export function presentCardRequest(row: CardRequestRow): CardRequestJson {
  return { _id: row.id, cardType: row.card_type, status: row.status, requestedAt: row.requested_at.toISOString() };
}

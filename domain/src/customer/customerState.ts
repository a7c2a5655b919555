import type { DocumentType, FileRef, Role, VerificationStatus } from '../primitives';
import type { CardType } from '../primitives';
import type { EncryptedSecret, RecoveryCodeHash } from '../events/customerEvents';
import type { ProfileDetails } from './customerCommands';

export interface CustomerVerification {
  readonly documentType: DocumentType;
  readonly passport: FileRef;
  readonly documentFront: FileRef;
  readonly documentBack: FileRef;
  readonly dateOfBirth: string;
  readonly submittedAt: string;
}

export interface CardRequest {
  readonly requestId: string;
  readonly cardType: CardType | null;
  readonly requestedAt: string;
}

/** The user's TOTP second factor: the encrypted secret and the recovery codes, with the positions already used. */
export interface SecondFactor {
  readonly method: 'totp';
  readonly secret: EncryptedSecret;
  readonly recoveryCodes: readonly RecoveryCodeHash[];
  readonly usedRecoveryCodes: readonly number[];
  readonly enrolledAt: string;
}

/** A registered user (customer or staff). `status: 'closed'` after CustomerClosed: it accepts no command. */
export interface Customer extends ProfileDetails {
  readonly status: 'active' | 'closed';
  readonly userId: string;
  readonly passwordHash: string;
  readonly accountNumber: string;
  readonly role: Role;
  readonly registeredAt: string;
  readonly verificationStatus: VerificationStatus;
  readonly verification: CustomerVerification | null;
  readonly profilePicture: FileRef | null;
  readonly pinHash: string | null;
  readonly isBlocked: boolean;
  readonly isDisabled: boolean;
  readonly closedAt: string | null;
  readonly cardRequests: readonly CardRequest[];
  /** null: the user signs in with the password alone (staff are led through enrolment). */
  readonly secondFactor: SecondFactor | null;
}

export type CustomerState = { readonly status: 'unregistered' } | Customer;

export const initialCustomerState: CustomerState = { status: 'unregistered' };

export function isRegistered(state: CustomerState): state is Customer {
  return state.status !== 'unregistered';
}

/** How many recovery codes of the user's second factor are still unused (0 without one). */
export function recoveryCodesLeft(state: Pick<Customer, 'secondFactor'>): number {
  const factor = state.secondFactor;
  return factor ? factor.recoveryCodes.length - factor.usedRecoveryCodes.length : 0;
}

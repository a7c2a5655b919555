import type { EncryptedSecret, RecoveryCodeHash } from '../events/customerEvents';
import type { CardType, DocumentType, FileRef, Role, VerificationStatus } from '../primitives';

/**
 * Commands of the customer aggregate (stream `customer-<userId>`).
 * Every command carries `now` (ISO instant). Staff commands carry the acting `adminId`.
 * Secrets arrive hashed; checks that need bcrypt arrive as booleans computed by the service.
 */

/** A file the service has stored: its ref plus the decoded size (the decider enforces MAX_FILE_BYTES). */
export type FileUpload = FileRef & { readonly sizeBytes: number };

/** The six profile fields of a user, as registered and as kept in the state. */
export interface ProfileDetails {
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly phone: string;
  readonly address: string;
  readonly state: string;
}

/** The profile fields of an edit: each omitted or blank one is left as it is or refused, as the command says. */
export type ProfileEdit = { readonly [Field in keyof ProfileDetails]?: string | undefined };

export interface RegisterCustomer extends ProfileDetails {
  readonly type: 'RegisterCustomer';
  readonly userId: string;
  readonly passwordHash: string;
  readonly accountNumber: string;
  readonly role: Role;
  readonly now: string;
}

/** The customer edits their own profile. Names are read-only (omitted = unchanged). */
export interface ChangeProfile extends ProfileEdit {
  readonly type: 'ChangeProfile';
  readonly now: string;
}

export interface ChangePassword {
  readonly type: 'ChangePassword';
  /** bcrypt.compare(oldPassword, state.passwordHash), computed by the service. */
  readonly oldPasswordMatches: boolean;
  readonly newPasswordHash: string;
  readonly now: string;
}

export interface SubmitVerification {
  readonly type: 'SubmitVerification';
  readonly documentType?: DocumentType | undefined;
  readonly passport?: FileUpload | undefined;
  readonly documentFront?: FileUpload | undefined;
  /** Falls back to documentFront. */
  readonly documentBack?: FileUpload | undefined;
  /** YYYY-MM-DD. */
  readonly dateOfBirth?: string | undefined;
  readonly now: string;
}

export interface SetProfilePicture {
  readonly type: 'SetProfilePicture';
  readonly picture: FileUpload;
  readonly now: string;
}

export interface RequestCard {
  readonly type: 'RequestCard';
  readonly requestId: string;
  readonly cardType?: CardType | undefined;
  readonly now: string;
}

/** Staff: edit the profile fields (all six required, names editable). */
export interface EditCustomerProfile extends ProfileEdit {
  readonly type: 'EditCustomerProfile';
  readonly adminId: string;
  readonly now: string;
}

export interface SetVerificationStatus {
  readonly type: 'SetVerificationStatus';
  readonly adminId: string;
  readonly status: VerificationStatus;
  readonly now: string;
}

export interface SetPaymentPin {
  readonly type: 'SetPaymentPin';
  readonly adminId: string;
  /** bcrypt hash of a 6-digit pin (the digits are checked by adminUserInput). */
  readonly pinHash: string;
  readonly now: string;
}

export interface StaffToggle {
  readonly type: 'BlockCustomer' | 'UnblockCustomer' | 'DisableCustomer' | 'EnableCustomer';
  readonly adminId: string;
  readonly now: string;
}

export interface ChangeAccountNumber {
  readonly type: 'ChangeAccountNumber';
  readonly adminId: string;
  /** 10 digits, already reserved by the account-number reservation decider. */
  readonly accountNumber: string;
  readonly now: string;
}

/**
 * Staff: the whole PUT /user/admin/:id form at once. Decided as EditCustomerProfile, SetVerificationStatus,
 * Block/Unblock, Disable/Enable and SetPaymentPin in that order; only what changes yields events.
 */
export interface AdminEditCustomer extends ProfileEdit {
  readonly type: 'AdminEditCustomer';
  readonly adminId: string;
  readonly verificationStatus?: VerificationStatus | undefined;
  readonly isBlocked?: boolean | undefined;
  readonly isDisabled?: boolean | undefined;
  /** Present only when the admin typed a new pin. */
  readonly pinHash?: string | undefined;
  readonly now: string;
}

export interface CloseCustomer {
  readonly type: 'CloseCustomer';
  readonly adminId: string;
  readonly now: string;
}

/**
 * The user confirms a TOTP authenticator. The service encrypts the secret, hashes the recovery codes and checks the
 * code (window and replay) before; the decider refuses a wrong code and a second enrolment.
 */
export interface EnrolSecondFactor {
  readonly type: 'EnrolSecondFactor';
  readonly secret: EncryptedSecret;
  readonly recoveryCodes: readonly RecoveryCodeHash[];
  readonly codeMatches: boolean;
  readonly now: string;
}

/** A customer turns the second factor off: their password and a current code, both checked by the service. */
export interface RemoveSecondFactor {
  readonly type: 'RemoveSecondFactor';
  readonly passwordMatches: boolean;
  readonly codeMatches: boolean;
  readonly now: string;
}

/** Staff (an admin): removes the user's second factor, with a reason. Only another admin may reset an admin's. */
export interface ResetSecondFactor {
  readonly type: 'ResetSecondFactor';
  readonly adminId: string;
  readonly reason: string;
  readonly now: string;
}

/** Sign-in with a recovery code: `index` is the position of the stored hash it matched (null: none matched). */
export interface UseRecoveryCode {
  readonly type: 'UseRecoveryCode';
  readonly index: number | null;
  readonly now: string;
}

export type CustomerCommand =
  | RegisterCustomer
  | ChangeProfile
  | ChangePassword
  | SubmitVerification
  | SetProfilePicture
  | RequestCard
  | EditCustomerProfile
  | SetVerificationStatus
  | SetPaymentPin
  | StaffToggle
  | ChangeAccountNumber
  | AdminEditCustomer
  | CloseCustomer
  | EnrolSecondFactor
  | RemoveSecondFactor
  | ResetSecondFactor
  | UseRecoveryCode;

import { z } from 'zod';
import {
  accountNumberSchema,
  calendarDateSchema,
  cardTypeSchema,
  documentTypeSchema,
  fileRefSchema,
  idSchema,
  instantSchema,
  roleSchema,
  verificationStatusSchema,
} from '../primitives';

/** Events of stream `customer-<userId>`. */

export const profileFieldsSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  state: z.string(),
});
export type ProfileFields = z.infer<typeof profileFieldsSchema>;
export const profileFieldNames = ['firstName', 'lastName', 'email', 'phone', 'address', 'state'] as const;
export type ProfileFieldName = (typeof profileFieldNames)[number];

export const customerRegisteredSchema = z.object({
  userId: idSchema,
  firstName: z.string().min(1),
  lastName: z.string().min(1),
  /** Lower-cased. */
  email: z.string().min(1),
  phone: z.string(),
  address: z.string(),
  state: z.string(),
  /** bcrypt hash; never shown (masked for auditors). */
  passwordHash: z.string().min(1),
  accountNumber: accountNumberSchema,
  role: roleSchema,
  registeredAt: instantSchema,
});

export const profileChangedSchema = z.object({
  /** Only the changed fields, their values before … */
  before: profileFieldsSchema.partial(),
  /** … and after. */
  after: profileFieldsSchema.partial(),
  /** The customer's own id, or the admin's id. */
  changedBy: idSchema,
  occurredAt: instantSchema,
});

export const passwordChangedSchema = z.object({
  passwordHash: z.string().min(1),
  changedBy: idSchema,
  occurredAt: instantSchema,
});

export const verificationSubmittedSchema = z.object({
  documentType: documentTypeSchema,
  passport: fileRefSchema,
  documentFront: fileRefSchema,
  /** The back of the document; the front when none was given. */
  documentBack: fileRefSchema,
  dateOfBirth: calendarDateSchema,
  /** The status before the submission; the submission itself moves the status to 'pending'. */
  previousStatus: verificationStatusSchema,
  submittedAt: instantSchema,
});

export const verificationStatusSetSchema = z.object({
  status: verificationStatusSchema,
  previousStatus: verificationStatusSchema,
  adminId: idSchema,
  occurredAt: instantSchema,
});

export const profilePictureSetSchema = z.object({
  fileId: idSchema,
  sha256: fileRefSchema.shape.sha256,
  occurredAt: instantSchema,
});

export const paymentPinSetSchema = z.object({
  /** bcrypt hash of the 6-digit pin; never shown (masked for auditors). */
  pinHash: z.string().min(1),
  adminId: idSchema,
  occurredAt: instantSchema,
});

export const staffActionSchema = z.object({ adminId: idSchema, occurredAt: instantSchema });

export const accountNumberChangedSchema = z.object({
  previous: accountNumberSchema,
  next: accountNumberSchema,
  adminId: idSchema,
  occurredAt: instantSchema,
});

export const customerClosedSchema = z.object({ adminId: idSchema, closedAt: instantSchema });

export const cardRequestedSchema = z.object({
  requestId: idSchema,
  /** null when the customer did not choose a type. */
  cardType: cardTypeSchema.nullable(),
  requestedAt: instantSchema,
});

/** How many single-use recovery codes an enrolment issues. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * A TOTP secret encrypted by the service (AES-256-GCM, base64 parts) with the key `keyId` of a keyring held outside
 * the event store; the domain only carries it. Never shown (masked for auditors).
 */
export const encryptedSecretSchema = z.object({
  keyId: z.string().min(1),
  iv: z.string().min(1),
  ciphertext: z.string().min(1),
  tag: z.string().min(1),
});
export type EncryptedSecret = z.infer<typeof encryptedSecretSchema>;

/** A recovery code as stored: a keyed hash (HMAC-SHA-256, base64) and the id of its key. */
export const recoveryCodeHashSchema = z.object({ keyId: z.string().min(1), hash: z.string().min(1) });
export type RecoveryCodeHash = z.infer<typeof recoveryCodeHashSchema>;

/** The user confirmed a TOTP authenticator with a code: from now on sign-in needs a code (or a recovery code). */
export const secondFactorEnrolledSchema = z.object({
  method: z.literal('totp'),
  secret: encryptedSecretSchema,
  recoveryCodes: z.array(recoveryCodeHashSchema).length(RECOVERY_CODE_COUNT),
  occurredAt: instantSchema,
});

/** A customer turned the second factor off (with their password and a current code). */
export const secondFactorRemovedSchema = z.object({ removedBy: idSchema, occurredAt: instantSchema });

/** An admin removed the user's second factor (lost phone): a staff member enrols again at the next sign-in. */
export const secondFactorResetSchema = z.object({ adminId: idSchema, reason: z.string().min(1).max(500), occurredAt: instantSchema });

/** One recovery code (by its position in the enrolment) was used to sign in; `remaining` are left. */
export const recoveryCodeUsedSchema = z.object({
  index: z.number().int().min(0).max(RECOVERY_CODE_COUNT - 1),
  remaining: z.number().int().min(0).max(RECOVERY_CODE_COUNT - 1),
  occurredAt: instantSchema,
});

export const customerEventSchemas = {
  CustomerRegistered: customerRegisteredSchema,
  ProfileChanged: profileChangedSchema,
  PasswordChanged: passwordChangedSchema,
  VerificationSubmitted: verificationSubmittedSchema,
  VerificationStatusSet: verificationStatusSetSchema,
  ProfilePictureSet: profilePictureSetSchema,
  PaymentPinSet: paymentPinSetSchema,
  CustomerBlocked: staffActionSchema,
  CustomerUnblocked: staffActionSchema,
  CustomerDisabled: staffActionSchema,
  CustomerEnabled: staffActionSchema,
  AccountNumberChanged: accountNumberChangedSchema,
  CustomerClosed: customerClosedSchema,
  CardRequested: cardRequestedSchema,
  SecondFactorEnrolled: secondFactorEnrolledSchema,
  SecondFactorRemoved: secondFactorRemovedSchema,
  SecondFactorReset: secondFactorResetSchema,
  RecoveryCodeUsed: recoveryCodeUsedSchema,
} as const;

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
} as const;

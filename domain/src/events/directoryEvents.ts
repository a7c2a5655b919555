import { z } from 'zod';
import { idSchema, instantSchema } from '../primitives';

/** Events of stream `beneficiaries` (the payee directory) and `contact-<contactId>`. */

export const beneficiaryEventDataSchema = z.object({
  beneficiaryId: idSchema,
  name: z.string().min(1),
  accountNumber: z.string().min(1),
  bankName: z.string().optional(),
  adminId: idSchema,
  occurredAt: instantSchema,
});

export const contactMessageReceivedSchema = z.object({
  contactId: idSchema,
  name: z.string().min(1),
  email: z.string().min(1),
  /** '' when not given. */
  phone: z.string(),
  /** '' when not given. */
  subject: z.string(),
  message: z.string().min(1),
  receivedAt: instantSchema,
});

export const contactMessageDeletedSchema = z.object({ contactId: idSchema, adminId: idSchema, occurredAt: instantSchema });

export const beneficiaryEventSchemas = {
  BeneficiaryAdded: beneficiaryEventDataSchema,
  BeneficiaryRemoved: beneficiaryEventDataSchema,
} as const;

export const contactEventSchemas = {
  ContactMessageReceived: contactMessageReceivedSchema,
  ContactMessageDeleted: contactMessageDeletedSchema,
} as const;

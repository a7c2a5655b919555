import { z } from 'zod';
import { accountKindSchema, amountCentsSchema, calendarDateSchema, idSchema, instantSchema } from '../primitives';

/**
 * Events of the single stream `achFiles`: the ACH file cycle (docs/ach.md). The stream is the one place where an
 * entry joins a file, so optimistic concurrency on it keeps every transfer in exactly one file.
 */

const traceNumberSchema = z.string().regex(/^\d{15}$/, '15 digits');
const routingSchema = z.string().regex(/^\d{9}$/, '9 digits');
const achAccountNumberSchema = z.string().min(1).max(17);
const reasonCodeSchema = z.string().regex(/^R\d{2}$/, 'R and two digits');
const centsTotalSchema = z.number().int().min(0);

/** What a waiting entry becomes in a file: an external transfer (22/32) or a return the bank owes (21/31). */
const waitingEntryFields = {
  /** The transfer, or the owed return's id. */
  transferId: idSchema,
  amountCents: amountCentsSchema,
  routingNumber: routingSchema,
  accountNumber: achAccountNumberSchema,
  name: z.string(),
  transactionCode: z.union([z.literal(21), z.literal(22), z.literal(31), z.literal(32)]),
  /** An external transfer's payer and the account debited. */
  payerId: idSchema.optional(),
  account: accountKindSchema.optional(),
  /** A return the bank owes: the incoming entry returned and why. */
  returnOf: z.object({ reasonCode: reasonCodeSchema, originalTraceNumber: traceNumberSchema }).optional(),
};

/** An external transfer, debited, waits for the next file (appended by the transfer process). */
export const achEntryQueuedSchema = z.object({ ...waitingEntryFields, queuedAt: instantSchema });

export const achFileEntrySchema = z.object({ ...waitingEntryFields, traceNumber: traceNumberSchema });
export type AchFileEntry = z.infer<typeof achFileEntrySchema>;

/** A file built from every waiting entry: its bytes unchanged, their SHA-256, its entries with their trace numbers. */
export const achFileBuiltSchema = z.object({
  fileId: idSchema,
  createdAt: instantSchema,
  businessDate: calendarDateSchema,
  effectiveDate: calendarDateSchema,
  text: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  entries: z.array(achFileEntrySchema).min(1),
  totalDebitCents: centsTotalSchema,
  totalCreditCents: centsTotalSchema,
  /** The trace sequence the next file starts from (trace numbers never repeat). */
  nextTraceSequence: z.number().int().min(1),
});

export const achFileTransmittedSchema = z.object({ fileId: idSchema, location: z.string(), transmittedAt: instantSchema });

/**
 * The file's entries settled at the close of business of its effective date. The external transfers settle on
 * their own streams (TransferSettled); the returns the bank owed (`returns`) post here: ach-outbound → cash-at-fed.
 */
export const achFileSettledSchema = z.object({
  fileId: idSchema,
  businessDate: calendarDateSchema,
  settledAt: instantSchema,
  returns: z.array(z.object({ transferId: idSchema, amountCents: amountCentsSchema })),
});

/** A return of one of the bank's entries applied (the refund is on the payer's account stream). */
export const achReturnAppliedSchema = z.object({
  originalTraceNumber: traceNumberSchema,
  transferId: idSchema,
  fileId: idSchema,
  reasonCode: reasonCodeSchema,
  amountCents: amountCentsSchema,
  /** The entry had settled: the money comes back from cash-at-fed rather than ach-outbound. */
  afterSettlement: z.boolean(),
  appliedAt: instantSchema,
  businessDate: calendarDateSchema,
});

/** An incoming credit applied to a customer (the credit is on the customer's account stream). */
export const achIncomingCreditedSchema = z.object({
  traceNumber: traceNumberSchema,
  customerId: idSchema,
  account: accountKindSchema,
  amountCents: amountCentsSchema,
  transactionId: idSchema,
  creditedAt: instantSchema,
  businessDate: calendarDateSchema,
});

/**
 * An incoming credit for an unknown (R03) or closed (R02) account: received and owed back (cash-at-fed →
 * ach-outbound); the return waits for the next file like an outgoing entry.
 */
export const achIncomingReturnedSchema = z.object({
  ...waitingEntryFields,
  returnOf: z.object({ reasonCode: reasonCodeSchema, originalTraceNumber: traceNumberSchema }),
  receivedAt: instantSchema,
  businessDate: calendarDateSchema,
});

export const achEventSchemas = {
  AchEntryQueued: achEntryQueuedSchema,
  AchFileBuilt: achFileBuiltSchema,
  AchFileTransmitted: achFileTransmittedSchema,
  AchFileSettled: achFileSettledSchema,
  AchReturnApplied: achReturnAppliedSchema,
  AchIncomingCredited: achIncomingCreditedSchema,
  AchIncomingReturned: achIncomingReturnedSchema,
} as const;

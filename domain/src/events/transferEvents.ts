import { z } from 'zod';
import { accountKindSchema, amountCentsSchema, calendarDateSchema, idSchema, instantSchema } from '../primitives';
import { transferRecipientFields } from './recipientFields';

/** Events of stream `transfer-<transferId>`: the life of one transfer. */

export const transferRequestedSchema = z.object({
  transferId: idSchema,
  payerId: idSchema,
  from: accountKindSchema,
  amountCents: amountCentsSchema,
  ...transferRecipientFields,
  description: z.string(),
  /** True when the account number belongs to this bank. */
  internal: z.boolean(),
  /** Internal transfers only. May equal payerId (moving money between one's own savings and checking). */
  payeeId: idSchema.optional(),
  requestedAt: instantSchema,
  /** Transaction ids fixed at request time, so every later step is idempotent. */
  debitTransactionId: idSchema,
  /** Internal transfers only: the payee's credit. */
  creditTransactionId: idSchema.optional(),
  /** Used only if the transfer fails: the payer's refund. */
  refundTransactionId: idSchema,
});

const moved = {
  transferId: idSchema,
  transactionId: idSchema,
  account: accountKindSchema,
  amountCents: amountCentsSchema,
  occurredAt: instantSchema,
};

export const transferDebitedSchema = z.object({ ...moved });
export const transferCreditedSchema = z.object({ ...moved, payeeId: idSchema });
export const transferSentSchema = z.object({ transferId: idSchema, occurredAt: instantSchema });
/**
 * An external transfer's money has left the bank. The payer, account and amount (absent on settlements recorded
 * before the books) let the ledger post the settlement from this event alone.
 */
export const transferSettledSchema = z.object({
  transferId: idSchema,
  occurredAt: instantSchema,
  payerId: idSchema.optional(),
  account: accountKindSchema.optional(),
  amountCents: amountCentsSchema.optional(),
  businessDate: calendarDateSchema.optional(),
});
export const transferFailedSchema = z.object({
  transferId: idSchema,
  reason: z.string().min(1),
  occurredAt: instantSchema,
  /** An ACH return: its reason code, and whether the entry had settled before it came back. */
  returnCode: z.string().regex(/^R\d{2}$/).optional(),
  afterSettlement: z.boolean().optional(),
});
export const transferRefundedSchema = z.object({ ...moved });

export const transferEventSchemas = {
  TransferRequested: transferRequestedSchema,
  TransferDebited: transferDebitedSchema,
  TransferCredited: transferCreditedSchema,
  TransferSent: transferSentSchema,
  TransferSettled: transferSettledSchema,
  TransferFailed: transferFailedSchema,
  TransferRefunded: transferRefundedSchema,
} as const;

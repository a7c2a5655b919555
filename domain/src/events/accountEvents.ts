import { z } from 'zod';
import { accountKindSchema, accountNumberSchema, amountCentsSchema, balanceCentsSchema, calendarDateSchema, idSchema, instantSchema } from '../primitives';
import { MAX_REASON_LENGTH } from '../limits';
import { interestPaymentSchema } from './interestEvents';
import { transferRecipientFields } from './recipientFields';

/** Events of stream `account-<userId>`: the customer's two balances. Every money event moves exactly one balance. */

export const transactionStatuses = ['completed', 'pending', 'failed'] as const;
export const transactionStatusSchema = z.enum(transactionStatuses);
export type TransactionStatus = z.infer<typeof transactionStatusSchema>;

export const accountOpenedSchema = z.object({
  userId: idSchema,
  /** The account number at opening (later changes are AccountNumberChanged on the customer stream). */
  accountNumber: accountNumberSchema,
  openedAt: instantSchema,
});

/** Fields every money event carries. */
const moneyFields = {
  transactionId: idSchema,
  account: accountKindSchema,
  /** Positive integer cents. */
  amountCents: amountCentsSchema,
  description: z.string(),
  transferId: idSchema.optional(),
  occurredAt: instantSchema,
  /** Balance of `account` after this event, integer cents. */
  balanceAfterCents: balanceCentsSchema,
  /** The business date the event belongs to (absent on events recorded before the books: the UTC date recorded). */
  businessDate: calendarDateSchema.optional(),
};

/**
 * Where a refund's money comes from: the clearing account the transfer's money waited in (see
 * ledger/chartOfAccounts.ts), or `cash-at-fed` for an ACH entry returned after it settled.
 */
export const transferClearingSchema = z.enum(['transfers-in-transit', 'ach-outbound', 'cash-at-fed']);
export type TransferClearing = z.infer<typeof transferClearingSchema>;

export const accountCreditedSchema = z.object({
  ...moneyFields,
  direction: z.literal('credit'),
  status: z.enum(['completed', 'pending']),
  /** For a refund of a failed transfer: the debit transaction it refunds. */
  refundOf: idSchema.optional(),
  /** For a refund: the clearing account the transfer's money waited in (absent on refunds before the books). */
  clearing: transferClearingSchema.optional(),
  /** For an interest payment (description 'Interest'): the month paid and the carry (docs/interest.md). */
  interest: interestPaymentSchema.optional(),
  /** An incoming ACH credit (docs/ach.md): the entry's trace number. */
  achTraceNumber: z.string().regex(/^\d{15}$/).optional(),
});

/**
 * The intent of a transfer, carried by the payer's debit (the request, decided and stored in one append on the
 * payer's account stream): who is paid, and every id the later steps use, fixed up front so each is idempotent.
 */
export const transferIntentSchema = z.object({
  /** True when the account number belongs to this bank (the payee's account is credited). */
  internal: z.boolean(),
  /** Internal transfers: the payee (may be the payer: moving money between one's own savings and checking). */
  payeeId: idSchema.optional(),
  /** Internal transfers: the payee's credit. */
  creditTransactionId: idSchema.optional(),
  /** Used only if the transfer fails: the payer's refund. */
  refundTransactionId: idSchema,
  ...transferRecipientFields,
  /** The customer's own description ('' when none). */
  description: z.string(),
  requestedAt: instantSchema,
});
export type TransferIntent = z.infer<typeof transferIntentSchema>;

export const accountDebitedSchema = z.object({
  ...moneyFields,
  direction: z.literal('debit'),
  status: z.enum(['completed', 'pending']),
  /** A transfer's debit: its intent (absent on debits recorded before the transfer process read it from here). */
  intent: transferIntentSchema.optional(),
});

export const balanceAdjustedSchema = z.object({
  ...moneyFields,
  /** credit when the new balance is higher, debit when lower; amountCents = |newCents − previousCents|. */
  direction: z.enum(['credit', 'debit']),
  status: z.literal('completed'),
  adminId: idSchema,
  reason: z.string().nullable(),
  previousCents: balanceCentsSchema,
  newCents: balanceCentsSchema,
});

export const staffTransactionPostedSchema = z.object({
  ...moneyFields,
  direction: z.enum(['credit', 'debit']),
  status: z.literal('completed'),
  adminId: idSchema,
  /** When the admin posted it; `occurredAt` is the date the admin gave. */
  postedAt: instantSchema,
  /** The admin's reason (kept on the journal entry). */
  reason: z.string().max(MAX_REASON_LENGTH).optional(),
});

export const transactionReversedSchema = z.object({
  ...moneyFields,
  /** Opposite of the reversed transaction's direction; amountCents is the amount restored. */
  direction: z.enum(['credit', 'debit']),
  status: z.literal('completed'),
  reversedTransactionId: idSchema,
  adminId: idSchema,
});

export const transactionStatusChangedSchema = z.object({
  transactionId: idSchema,
  status: z.enum(['completed', 'failed']),
  /** 'completed' only for an ACH entry returned after it settled (completed → failed). */
  previousStatus: z.enum(['pending', 'completed']),
  transferId: idSchema.optional(),
  occurredAt: instantSchema,
});

export const accountClosedSchema = z.object({ adminId: idSchema, closedAt: instantSchema });

export const accountEventSchemas = {
  AccountOpened: accountOpenedSchema,
  AccountCredited: accountCreditedSchema,
  AccountDebited: accountDebitedSchema,
  BalanceAdjusted: balanceAdjustedSchema,
  StaffTransactionPosted: staffTransactionPostedSchema,
  TransactionReversed: transactionReversedSchema,
  TransactionStatusChanged: transactionStatusChangedSchema,
  AccountClosed: accountClosedSchema,
} as const;

import { z } from 'zod';
import { accountKindSchema } from '../primitives';

/**
 * Who a transfer goes to, as the payer's debit and the transfer's request both record it: one definition, so the two
 * events can never describe a recipient differently.
 */
export const transferRecipientFields = {
  /** The recipient's account number as entered. */
  accountNumber: z.string().min(1),
  bankName: z.string(),
  routingNumber: z.string(),
  /** The recipient's account type (the account credited for an internal transfer). */
  accountType: accountKindSchema,
  /** From the server's own lookup (internal: payee's name; external: directory name or the form's `to`). */
  recipientName: z.string(),
} as const;

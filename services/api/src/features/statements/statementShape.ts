import { TRANSACTION_KINDS } from '@bank/domain';
import { z } from 'zod';

/** A transaction of a statement (GET /statements, format=json), in dollars. */
export const statementTransactionShape = z
  .object({
    _id: z.uuid().describe('the transaction (as `id`; the Transaction shape\'s name)'),
    id: z.uuid(),
    date: z.iso.datetime({ offset: true }).describe('when the log recorded it'),
    description: z.string(),
    transactionType: z.enum(['credit', 'debit']).describe('as `type` (the Transaction shape\'s name)'),
    type: z.enum(['credit', 'debit']),
    account: z.enum(['checking', 'savings']).describe('the statement\'s account'),
    kind: z.enum(TRANSACTION_KINDS),
    amount: z.number().positive().describe('dollars'),
    balanceAfter: z.number().describe('dollars: the running balance'),
    transferId: z.uuid().optional(),
  })
  .strict();

/** The statement of one account over a period (docs/api.md "Statements"). */
export const statementShape = z
  .object({
    account: z.enum(['checking', 'savings']),
    accountNumber: z.string(),
    customerName: z.string(),
    from: z.iso.date(),
    to: z.iso.date(),
    openingBalance: z.number().describe('dollars, the balance at the start of `from` (UTC)'),
    closingBalance: z.number().describe('dollars, the balance at the end of `to` (UTC)'),
    totalIn: z.number().describe('dollars'),
    totalOut: z.number().describe('dollars'),
    transactions: z.array(statementTransactionShape).describe('oldest first'),
  })
  .strict();

import { z } from 'zod';

const date = z.iso.date();

/** A standing order as the API answers it (the tests check answers with it; the OpenAPI document shows it). */
export const standingOrderShape = z
  .object({
    _id: z.uuid(),
    status: z.enum(['active', 'paused', 'suspended', 'cancelled']),
    suspendedReason: z.string().nullable(),
    from: z.enum(['savings', 'checking']),
    accountNumber: z.string(),
    bankName: z.string(),
    routingNumber: z.string(),
    accountType: z.enum(['savings', 'checking']),
    recipientName: z.string(),
    amount: z.number().describe('dollars'),
    description: z.string(),
    schedule: z
      .object({ frequency: z.enum(['weekly', 'monthly']), day: z.number().int(), firstDate: date, endDate: date.optional(), count: z.number().int().optional() })
      .strict(),
    nextDate: date.nullable().describe('the next payment (null when not active or ended)'),
    paymentsMade: z.number().int(),
    occurrences: z.array(
      z
        .object({
          date,
          status: z.enum(['paid', 'failed', 'missed']),
          transferId: z.uuid().optional(),
          transactionId: z.uuid().optional().describe("the payer's debit transaction of the occurrence's transfer"),
          reason: z.string().optional(),
        })
        .strict()
        .describe('latest first'),
    ),
    createdAt: z.iso.datetime({ offset: true }),
  })
  .strict();

import { z } from 'zod';

/** A rate of GET /rates and PUT /admin/rates (percent up to 4 decimals; APY two decimals). */
export const rateShape = z
  .object({
    account: z.enum(['savings', 'checking']),
    annualRate: z.number().min(0).max(25).describe('percent a year'),
    apy: z.number().min(0).describe('annual percentage yield, percent, two decimals: 100 × ((1 + r/1200)^12 − 1)'),
    effectiveFrom: z.iso.date(),
  })
  .strict();

/** GET /interest's data (and GET /audit/users/:id/interest's). */
export const interestShape = z
  .object({
    year: z.number().int(),
    annualRate: z.number().describe('the savings rate in force, percent a year'),
    apy: z.number(),
    accruedThisMonth: z.number().describe('dollars: the month-to-date exact accrual plus the carry, rounded half to even'),
    paidThisYear: z.number().describe('dollars'),
    payments: z.array(z.object({ date: z.iso.date(), amount: z.number().describe('dollars'), account: z.enum(['savings', 'checking']) }).strict()),
  })
  .strict();
export type InterestDto = z.infer<typeof interestShape>;

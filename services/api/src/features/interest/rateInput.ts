import { accountKinds, isCalendarDate, parseAnnualRate } from '@bank/domain';
import { z } from 'zod';

export const ANNUAL_RATE_MESSAGE = 'annualRate must be a percentage from 0 to 25 with at most 4 decimals';
export const EFFECTIVE_FROM_MESSAGE = 'effectiveFrom must be a date as YYYY-MM-DD';

/**
 * Body of PUT /admin/rates: `{account, annualRate, effectiveFrom}`. The rate is percent (a number or a numeric
 * string, 0–25, at most 4 decimals) and becomes the integer annualRate (ten-thousandths of a percent); 400 otherwise.
 */
export const interestRateInput = z.object({
  account: z.enum(accountKinds, { error: 'account must be savings or checking' }),
  annualRate: z
    .union([z.number(), z.string()], { error: ANNUAL_RATE_MESSAGE })
    .describe('Percent a year, 0–25, at most 4 decimals (5.00 = 5 %)')
    .transform((value, ctx) => {
      const rate = parseAnnualRate(value);
      if (rate === undefined) {
        ctx.addIssue({ code: 'custom', message: ANNUAL_RATE_MESSAGE });
        return z.NEVER;
      }
      return rate;
    }),
  effectiveFrom: z
    .string({ error: EFFECTIVE_FROM_MESSAGE })
    .trim()
    .refine((text) => isCalendarDate(text), { error: EFFECTIVE_FROM_MESSAGE })
    .describe('The first business date the rate applies to (after the current one)'),
});
export type InterestRateInput = z.infer<typeof interestRateInput>;

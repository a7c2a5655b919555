import { z } from 'zod';
import { blankToUndefined } from './fields';
import { transferFields } from './transferInput';

const wholeNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
    z.number({ error: `${label} must be a whole number` }).int(`${label} must be a whole number`).min(min, `${label} must be ${min} to ${max}`).max(max, `${label} must be ${min} to ${max}`),
  );
const date = (label: string) => z.iso.date({ error: `${label} must be a date (YYYY-MM-DD)` });

/**
 * A standing order's schedule: weekly on `day` 1–7 (Monday = 1) or monthly on `day` 1–31, from `firstDate`, until
 * `endDate` or for `count` payments. 400 when malformed; the domain refuses (422) a weekly day above 7, a first date
 * in the past, an end before the first date.
 */
export const scheduleInput = z.object(
  {
    frequency: z.enum(['weekly', 'monthly'], { error: 'Frequency must be weekly or monthly' }),
    day: wholeNumber('Day', 1, 31),
    firstDate: date('First date'),
    endDate: z.preprocess(blankToUndefined, date('End date').optional()),
    count: z.preprocess(blankToUndefined, wholeNumber('Number of payments', 1, 10_000).optional()),
  },
  { error: 'Schedule is required' },
);

/** HTTP input of POST /standing-orders: the body of POST /transaction/transfer plus `schedule`. */
export const standingOrderInput = transferFields.extend({ schedule: scheduleInput }).transform(({ amount, ...rest }) => ({ ...rest, amountCents: amount }));
export type StandingOrderInput = z.output<typeof standingOrderInput>;

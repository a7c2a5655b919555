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
export const scheduleFields = {
  frequency: z.enum(['weekly', 'monthly'], { error: 'Frequency must be weekly or monthly' }),
  day: wholeNumber('Day', 1, 31),
  firstDate: date('First date'),
  endDate: z.preprocess(blankToUndefined, date('End date').optional()),
  count: z.preprocess(blankToUndefined, wholeNumber('Number of payments', 1, 10_000).optional()),
};

const scheduleKeys = Object.keys(scheduleFields) as (keyof typeof scheduleFields)[];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * API.md: the schedule's fields sit at the top level of the body; the same fields nested in `schedule: {…}` are
 * accepted too. A nested schedule is lifted to the top level (its fields win over top-level ones), so both forms are
 * checked by one schema and an error names the field (`frequency`, `day`, …) whichever form was sent.
 */
function liftNestedSchedule(body: unknown): unknown {
  if (!isPlainObject(body) || !isPlainObject(body.schedule)) return body;
  const { schedule, ...rest } = body;
  const lifted: Record<string, unknown> = { ...rest };
  for (const key of scheduleKeys) if (schedule[key] !== undefined) lifted[key] = schedule[key];
  return lifted;
}

/** HTTP input of POST /standing-orders: the body of POST /transaction/transfer plus the schedule's fields. */
export const standingOrderInput = z.preprocess(
  liftNestedSchedule,
  transferFields.extend(scheduleFields).transform(({ amount, frequency, day, firstDate, endDate, count, ...rest }) => ({
    ...rest,
    amountCents: amount,
    schedule: { frequency, day, firstDate, ...(endDate !== undefined ? { endDate } : {}), ...(count !== undefined ? { count } : {}) },
  })),
);
export type StandingOrderInput = z.output<typeof standingOrderInput>;

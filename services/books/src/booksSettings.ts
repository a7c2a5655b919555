import { z } from 'zod';
import { ConfigError } from '@bank/platform';

const YYYY_MM_DD = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(value: string): boolean {
  const at = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
}

/**
 * The books' settings (the business date and the close of business), read once at start-up. Every variable is
 * optional; `manual` mode moves time by hand (POST /admin/business-date/advance) and is refused in production.
 */
const booksSettingsSchema = z.object({
  /** `calendar` (default): the business date is the UTC date; `manual`: it moves only when an admin advances it. */
  BUSINESS_DATE_MODE: z.enum(['calendar', 'manual']).default('calendar'),
  /** Manual mode: the first business date (YYYY-MM-DD) when the calendar starts; default the UTC date at that time. */
  BUSINESS_DATE_START: z
    .string()
    .refine((value) => YYYY_MM_DD.test(value) && isRealDate(value), 'must be a date YYYY-MM-DD')
    .optional(),
  /** How often the worker looks for a date to close (calendar mode). */
  COB_TICK_MS: z.coerce.number().int().positive().default(60_000),
  /**
   * How long the COB's interest step waits for the projector to apply the day's accrual (and the month's payments)
   * before it fails (the next tick goes on from there). The accrual of a million accounts takes seconds to a minute.
   */
  COB_PROJECTOR_WAIT_MS: z.coerce.number().int().positive().default(600_000),
  /** How many interest payments the month-end step has in flight at once. */
  INTEREST_PAYMENT_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
});

export type BooksSettings = z.infer<typeof booksSettingsSchema>;

export const MANUAL_MODE_IN_PRODUCTION =
  'BUSINESS_DATE_MODE=manual is refused when NODE_ENV=production: in production the business date follows the calendar (unset BUSINESS_DATE_MODE or set it to calendar)';

/** Reads the settings from an environment; throws a ConfigError naming every bad variable. */
export function parseBooksSettings(env: Record<string, string | undefined>): BooksSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = booksSettingsSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (result.data.BUSINESS_DATE_MODE === 'manual' && env.NODE_ENV === 'production') throw new ConfigError(MANUAL_MODE_IN_PRODUCTION);
  return result.data;
}

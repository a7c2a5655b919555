import { z } from 'zod';
import { calendarDateSchema, instantSchema } from '../primitives';

/**
 * Events of the single stream `businessDays`: the bank's business calendar and its close of business (COB).
 * COB for a date runs its steps in order, each recorded once (CobStepCompleted), then the day close.
 */

export const businessDateModes = ['calendar', 'manual'] as const;
export const businessDateModeSchema = z.enum(businessDateModes);
export type BusinessDateMode = z.infer<typeof businessDateModeSchema>;

/** The COB steps before the day close, in order (docs/ach.md for the ACH settlement, docs/interest.md for interest). */
export const cobStepNames = ['standingOrders', 'achSettlement', 'interest'] as const;
export const cobStepNameSchema = z.enum(cobStepNames);
export type CobStepName = z.infer<typeof cobStepNameSchema>;

const decimalCents = z.string().regex(/^-?\d+$/, 'cents as a decimal string');

export const businessCalendarStartedSchema = z.object({
  /** The first business date (the first one a COB closes). */
  firstDate: calendarDateSchema,
  mode: businessDateModeSchema,
  startedAt: instantSchema,
});

export const cobStepCompletedSchema = z.object({
  businessDate: calendarDateSchema,
  step: cobStepNameSchema,
  completedAt: instantSchema,
  /** What the step did, for operators (counts). */
  summary: z.record(z.string(), z.number().int()).optional(),
});

export const businessDayClosedSchema = z.object({
  businessDate: calendarDateSchema,
  closedAt: instantSchema,
  /**
   * The event-store position the close is taken at: it covers the journal lines of the events after the previous
   * close's `throughPosition` up to and including this one ('' for an empty log).
   */
  throughPosition: z.string(),
  /** Cumulative totals of every account of the chart at `throughPosition`. */
  accounts: z.array(z.object({ key: z.string(), debitsCents: decimalCents, creditsCents: decimalCents })),
  totalDebitsCents: decimalCents,
  totalCreditsCents: decimalCents,
  balanced: z.boolean(),
  /** SHA-256 (hex) of the day's lines (ledger/journalHash.ts). */
  journalHash: z.string().regex(/^[0-9a-f]{64}$/),
  /** Lines of the day (after the previous close, up to throughPosition). */
  lineCount: z.number().int().min(0),
  /** When not balanced: the accounts whose totals the close found wrong, with what it found. */
  unbalancedAccounts: z.array(z.string()).optional(),
});
export type BusinessDayClose = z.infer<typeof businessDayClosedSchema>;

export const businessDayEventSchemas = {
  BusinessCalendarStarted: businessCalendarStartedSchema,
  CobStepCompleted: cobStepCompletedSchema,
  BusinessDayClosed: businessDayClosedSchema,
} as const;

import { z } from 'zod';
import { accountKindSchema, calendarDateSchema, idSchema, instantSchema } from '../primitives';

/** Interest (docs/interest.md). Rates on the single stream `interestRates`; the COB's interest facts on `businessDays`. */

const annualRateSchema = z.number().int().min(0).max(250_000);
const decimalUnits = z.string().regex(/^-?\d+$/, 'an integer as a decimal string');
const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'YYYY-MM');

/** A rate for an account type from a business date on (ten-thousandths of a percent: 5.00 % = 50_000). */
export const interestRateScheduledSchema = z.object({
  account: accountKindSchema,
  annualRate: annualRateSchema,
  effectiveFrom: calendarDateSchema,
  actorId: idSchema,
  scheduledAt: instantSchema,
});

export const interestRateEventSchemas = {
  InterestRateScheduled: interestRateScheduledSchema,
} as const;

/**
 * The accrual of `businessDate` begins: every account accrues its end-of-day balance (the log before this event, by
 * effective date) at these rates. The read models compute each account's accrual when they reach this event.
 */
export const interestAccruedSchema = z.object({
  businessDate: calendarDateSchema,
  rates: z.object({ savings: annualRateSchema, checking: annualRateSchema }),
  accruedAt: instantSchema,
});

/** The day's accrual booked in the ledger: one entry, debit interest-expense, credit interest-payable. */
export const interestBookedSchema = z.object({
  businessDate: calendarDateSchema,
  /** Accounts that accrued a positive amount that day. */
  accounts: z.number().int().min(0),
  /** The day's exact accrual over all accounts, in units (1/365,000,000 cent). */
  accruedUnits: decimalUnits,
  /** The increase of the accounts' rounded month-to-date accruals (never negative). */
  bookedCents: z.number().int().min(0),
  bookedAt: instantSchema,
});

/** The month's payments are made: every account's carry rolls into the next month. */
export const interestMonthClosedSchema = z.object({
  month: monthSchema,
  businessDate: calendarDateSchema,
  paidAccounts: z.number().int().min(0),
  paidCents: decimalUnits,
  closedAt: instantSchema,
});

export const interestDayEventSchemas = {
  InterestAccrued: interestAccruedSchema,
  InterestBooked: interestBookedSchema,
  InterestMonthClosed: interestMonthClosedSchema,
} as const;

/** On an interest payment (AccountCredited described 'Interest'): what it pays and what it carries. */
export const interestPaymentSchema = z.object({
  month: monthSchema,
  /** The month's exact accrual plus the carry from the month before, in units. */
  accruedUnits: decimalUnits,
  /** What is carried into the next month, in units (|carry| ≤ half a cent). */
  carryUnits: decimalUnits,
});
export type InterestPayment = z.infer<typeof interestPaymentSchema>;

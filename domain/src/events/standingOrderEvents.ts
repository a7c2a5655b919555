import { z } from 'zod';
import { accountKindSchema, amountCentsSchema, calendarDateSchema, idSchema, instantSchema } from '../primitives';

/** Events of stream `standingOrder-<orderId>`: a payment that repeats on a schedule. */

export const scheduleSchema = z.object({
  frequency: z.enum(['weekly', 'monthly']),
  /** weekly: 1–7 (Monday = 1); monthly: 1–31 (the month's last day when it is shorter). */
  day: z.number().int().min(1).max(31),
  firstDate: calendarDateSchema,
  endDate: calendarDateSchema.optional(),
  count: z.number().int().min(1).optional(),
});

export const standingOrderCreatedSchema = z.object({
  orderId: idSchema,
  payerId: idSchema,
  from: accountKindSchema,
  accountNumber: z.string().min(1),
  bankName: z.string(),
  routingNumber: z.string(),
  accountType: accountKindSchema,
  recipientName: z.string(),
  amountCents: amountCentsSchema,
  description: z.string(),
  schedule: scheduleSchema,
  createdAt: instantSchema,
});

const changed = { orderId: idSchema, occurredAt: instantSchema };

export const standingOrderEventSchemas = {
  StandingOrderCreated: standingOrderCreatedSchema,
  StandingOrderPaused: z.object({ ...changed }),
  /** Occurrences before `resumedOn` that were not settled are skipped, not paid. */
  StandingOrderResumed: z.object({ ...changed, resumedOn: calendarDateSchema }),
  StandingOrderCancelled: z.object({ ...changed }),
  /** The occurrence's transfer was requested (its id derives from the order and the date). */
  OccurrencePaid: z.object({ ...changed, date: calendarDateSchema, transferId: idSchema }),
  /** The occurrence's transfer was refused (e.g. not enough balance); it is not tried again. */
  OccurrenceFailed: z.object({ ...changed, date: calendarDateSchema, reason: z.string().min(1) }),
  /** The occurrence fell due during downtime longer than the catch-up window; it is not paid. */
  OccurrenceMissed: z.object({ ...changed, date: calendarDateSchema }),
  /** Three failures in a row: the order stops until the customer resumes it. */
  StandingOrderSuspended: z.object({ ...changed, reason: z.string().min(1) }),
} as const;

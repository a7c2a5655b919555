import { z } from 'zod';

const date = z.iso.date();

/** GET /admin/business-date's data (the tests check answers with it; the OpenAPI document shows it). */
export const businessDateShape = z
  .object({
    businessDate: date,
    mode: z.enum(['calendar', 'manual']),
    lastClosedDate: date.nullable(),
  })
  .strict();

/** POST /admin/business-date/advance's data: the open date after the advance, and the dates it closed in order. */
export const businessDateAdvanceShape = z.object({ businessDate: date, closed: z.array(date) }).strict();

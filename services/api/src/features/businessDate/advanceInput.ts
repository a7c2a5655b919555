import { z } from 'zod';

export const MAX_ADVANCE_DAYS = 366;
export const ADVANCE_DAYS_MESSAGE = `days must be a whole number from 1 to ${MAX_ADVANCE_DAYS}`;

/** Body of POST /admin/business-date/advance: `{days?}`, 1–366 (default 1). */
export const advanceInput = z
  .object({
    days: z
      .number({ error: ADVANCE_DAYS_MESSAGE })
      .int({ error: ADVANCE_DAYS_MESSAGE })
      .min(1, { error: ADVANCE_DAYS_MESSAGE })
      .max(MAX_ADVANCE_DAYS, { error: ADVANCE_DAYS_MESSAGE })
      .optional(),
  })
  .transform(({ days }) => ({ days: days ?? 1 }));

import { MAX_ADVANCE_DAYS } from '@bank/domain';
import { z } from 'zod';

export const ADVANCE_DAYS_MESSAGE = `days must be a whole number from 1 to ${MAX_ADVANCE_DAYS}`;

/** Body of POST /admin/business-date/advance: `{days?}`, a whole number 1–366 (default 1); anything else is 400. */
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

import { z } from 'zod';

/** Without `limit` (and without a cursor) GET /user/admin answers every customer while there are at most this many. */
export const ALL_CUSTOMERS_MAX = 1000;
/** The page size past ALL_CUSTOMERS_MAX, and with a cursor but no limit. */
export const CUSTOMER_PAGE = 50;
/** The largest `limit` (about 460 bytes a customer: under half a megabyte a page). */
export const CUSTOMER_MAX_LIMIT = 1000;
/** `offset` is kept for old clients only: OFFSET reads every skipped row, so it is bounded. */
export const CUSTOMER_MAX_OFFSET = 10_000;

const integerText = <T extends number | undefined>(label: string, min: number, max: number, fallback: T) =>
  z.preprocess(
    (value) => (value === undefined || value === '' ? undefined : value),
    z
      .string({ error: `${label} must be a whole number` })
      .regex(/^\d{1,9}$/, `${label} must be a whole number`)
      .transform(Number)
      .pipe(z.number().min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`))
      .optional()
      .transform((value) => value ?? fallback),
  );

/** GET /user/admin ?search&limit&cursor (and the legacy offset); see listUsers for what an absent limit means. */
export const adminUserListQuery = z.object({
  search: z.string({ error: 'Search must be text' }).max(100, 'Search must be at most 100 characters').optional(),
  limit: integerText('Limit', 1, CUSTOMER_MAX_LIMIT, undefined),
  offset: integerText('Offset', 0, CUSTOMER_MAX_OFFSET, 0),
  cursor: z.string({ error: 'cursor must be given once' }).optional(),
});

import { z } from 'zod';

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

/** GET /user/admin ?search&limit&offset (no limit: every customer, as the spec's "list all users"; offset default 0). */
export const adminUserListQuery = z.object({
  search: z.string({ error: 'Search must be text' }).max(100, 'Search must be at most 100 characters').optional(),
  limit: integerText('Limit', 1, 10_000, undefined),
  offset: integerText('Offset', 0, 1_000_000, 0),
});

import { z } from 'zod';

const money = z.number().describe('dollars');

/** A file as GET /admin/ach/files lists it. */
export const achFileShape = z
  .object({
    id: z.uuid(),
    createdAt: z.iso.datetime({ offset: true }),
    effectiveDate: z.iso.date(),
    entryCount: z.number().int(),
    totalDebit: money,
    totalCredit: money,
    status: z.enum(['created', 'transmitted']),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();

export const achEntryShape = z
  .object({
    traceNumber: z.string().regex(/^\d{15}$/),
    transferId: z.uuid(),
    amount: money,
    routingNumber: z.string(),
    accountNumber: z.string(),
    name: z.string(),
    transactionCode: z.number().int(),
  })
  .strict();

/** GET /admin/ach/files/:id (and POST /admin/ach/files' 201): the file with its entries. */
export const achFileDetailShape = achFileShape.extend({ entries: z.array(achEntryShape) }).strict();

const traced = z.object({ traceNumber: z.string(), reason: z.string() }).strict();

/** POST /admin/ach/returns. */
export const achReturnsResultShape = z.object({ applied: z.number().int(), alreadyApplied: z.number().int(), unmatched: z.array(traced) }).strict();

/** POST /admin/ach/incoming. */
export const achIncomingResultShape = z.object({ credited: z.number().int(), returned: z.array(traced), alreadyApplied: z.number().int() }).strict();

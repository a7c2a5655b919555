/**
 * Shapes of the ACH part of the HTTP contract (shared/design/API.md, "ACH"), as generated from the API's OpenAPI
 * document (openApiTypes.ts, `npm run api:types`). Money in dollars (at most two
 * decimals), dates `YYYY-MM-DD`, instants ISO-8601.
 */
import type { components } from '../../lib/api/openApiTypes';

type Shapes = components['schemas'];

/** One row of GET /admin/ach/files. */
export type AchFileSummary = Shapes['AchFile'];
export type AchFileStatus = AchFileSummary['status'];

/** GET /admin/ach/files/:id (and POST /admin/ach/files' 201): the file with its entries. */
export type AchFileDetail = Shapes['AchFileDetail'];

/**
 * One entry of a file: an external transfer (`transferId` its transfer) or a return the bank sends back for an
 * incoming credit it could not apply (21/31; `transferId` then names that return).
 */
export type AchEntry = AchFileDetail['entries'][number];

/** POST /admin/ach/returns: counts of returns applied now and before, and the returns that matched no entry. */
export type AchReturnsResult = Shapes['AchReturnsResult'];

/** POST /admin/ach/incoming: credits applied, entries to send back (R02/R03), entries seen before. */
export type AchIncomingResult = Shapes['AchIncomingResult'];

/** An entry of an imported file, named by trace number, and the return reason code (R01…). */
export type AchTraceReason = AchReturnsResult['unmatched'][number];

export type AchUploadKind = 'returns' | 'incoming';

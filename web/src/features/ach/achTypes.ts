/**
 * Shapes of the ACH part of the HTTP contract (shared/design/API.md, "ACH"). Money in dollars (at most two
 * decimals), dates `YYYY-MM-DD`, instants ISO-8601.
 */

export type AchFileStatus = 'created' | 'transmitted';

/** One row of GET /admin/ach/files. */
export interface AchFileSummary {
  readonly id: string;
  readonly createdAt: string;
  readonly effectiveDate: string;
  readonly entryCount: number;
  readonly totalDebit: number;
  readonly totalCredit: number;
  readonly status: AchFileStatus;
  readonly sha256: string;
}

/** One entry of a file (GET /admin/ach/files/:id). */
export interface AchEntry {
  readonly traceNumber: string;
  /** The transfer it carries; absent or null for a return the bank sends back (an incoming credit it could not apply). */
  readonly transferId?: string | null;
  readonly amount: number;
  readonly routingNumber: string;
  readonly accountNumber: string;
  readonly name: string;
  readonly transactionCode: number;
}

export interface AchFileDetail extends AchFileSummary {
  readonly entries: readonly AchEntry[];
}

/** An entry of an imported file, named by trace number, and the return reason code (R01…). */
export interface AchTraceReason {
  readonly traceNumber: string;
  readonly reason: string;
}

/** POST /admin/ach/returns: counts of returns applied now and before, and the returns that matched no entry. */
export interface AchReturnsResult {
  readonly applied: number;
  readonly alreadyApplied: number;
  readonly unmatched: readonly AchTraceReason[];
}

/** POST /admin/ach/incoming: credits applied, entries to send back (R02/R03), entries seen before. */
export interface AchIncomingResult {
  readonly credited: number;
  readonly returned: readonly AchTraceReason[];
  readonly alreadyApplied: number;
}

export type AchUploadKind = 'returns' | 'incoming';

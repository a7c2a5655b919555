/**
 * Verifications of a generated bank (pure, deterministic for a seed): about a fifth of the customers submit their
 * documents some days after joining; the generated admin verifies most of those a few days later, rejects some, and
 * leaves the rest pending. Every submission shows the same generated document (seedDocument.ts).
 */
import type { DocumentType } from '@bank/domain';
import { seededRandom } from './seedPlan';
import { DAY_MS } from './seedTransfers';

export interface PlannedVerification {
  readonly documentType: DocumentType;
  /** YYYY-MM-DD, an adult's. */
  readonly dateOfBirth: string;
  readonly submittedAt: string;
  /** The admin's decision and when, or undefined while it is pending. */
  readonly decision: { readonly status: 'verified' | 'failed'; readonly at: string } | undefined;
}

const SHARE = 0.2;
const DOCUMENT_TYPES: readonly DocumentType[] = ['passport', 'national-id', 'driver-license'];

/** Customer `index`'s verification, or undefined when they never submit one. `joined`: their registration (ms). */
export function plannedVerification(seed: number, index: number, joined: number): PlannedVerification | undefined {
  const random = seededRandom((seed * 613 + index) ^ 0x1b873593);
  if (random() >= SHARE) return undefined;
  const documentType = DOCUMENT_TYPES[Math.floor(random() * DOCUMENT_TYPES.length)]!;
  const birth = new Date(Date.UTC(1950 + Math.floor(random() * 50), Math.floor(random() * 12), 1 + Math.floor(random() * 28)));
  const submitted = joined + (1 + Math.floor(random() * 20)) * DAY_MS + Math.floor(random() * DAY_MS);
  const outcome = random();
  const decided = submitted + (1 + Math.floor(random() * 5)) * DAY_MS;
  return {
    documentType,
    dateOfBirth: birth.toISOString().slice(0, 10),
    submittedAt: new Date(submitted).toISOString(),
    decision: outcome < 0.7 ? { status: 'verified', at: new Date(decided).toISOString() } : outcome < 0.85 ? { status: 'failed', at: new Date(decided).toISOString() } : undefined,
  };
}

import { EventParseError, formatUsd, safeParseEvent } from '@bank/domain';
import type { EventStore, RecordedEvent } from '@bank/eventstore';
import { verifyEventLog, type AuditMismatch, type CheckpointSummary, type RestoreSummary, type VerifyEventLogOptions } from './verifyEventLog';

/** GET /audit/verify: `{ok, checked, mismatches, notes, checkpoint}`. */
export interface VerifyReport {
  readonly ok: boolean;
  /** `standingOrders`: the orders of rm.standing_orders compared with the replay of their streams. */
  /** `journalLines`: the lines of rm.journal_lines compared with the books replayed from the log. */
  readonly checked: { readonly streams: number; readonly events: number; readonly balances: number; readonly standingOrders: number; readonly journalLines: number };
  readonly mismatches: AuditMismatch[];
  /** The newest signed checkpoint the log was compared with; null when there was none. */
  readonly checkpoint: CheckpointSummary | null;
  /** What could not be checked, and why. */
  readonly notes: string[];
  /** Only for a restored log (`--restored`): the signed checkpoints it holds all of, and those beyond it. */
  readonly restore?: RestoreSummary;
}

/** The comparison of replayed balances, transactions and standing orders with the read models. */
export type ReadModelCheck = () => Promise<{ readonly balances: number; readonly standingOrders?: number; readonly journalLines?: number; readonly mismatches: AuditMismatch[] }>;

export interface VerifyRecordOptions extends Omit<VerifyEventLogOptions, 'checkEvent'> {
  readonly store: EventStore;
  readonly readModels: ReadModelCheck;
}

/** An event whose stored data the domain cannot read (a schema it does not fit, an unknown type). */
export function checkEventData(event: RecordedEvent): string | undefined {
  const version = event.metadata.schemaVersion;
  const parsed = safeParseEvent(event.type, event.data, typeof version === 'number' ? version : undefined);
  return parsed.ok ? undefined : `the stored data cannot be read: ${parsed.error.message}`;
}

/**
 * Checks every stream's hash chain, the log against the signed checkpoints and that every event's data can be read,
 * then compares every balance and standing order of the read models with a replay of the events.
 */
export async function verifyRecord(options: VerifyRecordOptions): Promise<VerifyReport> {
  const chains = await verifyEventLog(options.store, { ...options, checkEvent: checkEventData });
  const notes: string[] = [];
  let readModels: Awaited<ReturnType<ReadModelCheck>> = { balances: 0, standingOrders: 0, journalLines: 0, mismatches: [] };
  try {
    options.onProgress?.({ phase: 'read-models', done: 0 });
    readModels = await options.readModels();
  } catch (error) {
    // An unreadable event stops the replay; the chain check above has already named its stream.
    if (!(error instanceof EventParseError) || chains.mismatches.length === 0) throw error;
    notes.push(`The read models were not compared: ${error.message}`);
  }
  const mismatches = [...chains.mismatches, ...readModels.mismatches];
  return {
    ok: mismatches.length === 0 && notes.length === 0,
    checked: { streams: chains.streams, events: chains.events, balances: readModels.balances, standingOrders: readModels.standingOrders ?? 0, journalLines: readModels.journalLines ?? 0 },
    mismatches,
    notes,
    checkpoint: chains.checkpoint ?? null,
    ...(chains.restore ? { restore: chains.restore } : {}),
  };
}

/** A read-model value for people: balances and amounts are cents. */
export function describeValue(field: string, value: unknown): string {
  if (value === null || value === undefined) return 'missing';
  if (typeof value === 'number' && /(^savings$|^checking$|Cents$)/.test(field)) return formatUsd(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

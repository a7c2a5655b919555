import type { ReadModelReport } from '@bank/audit';
import type { UnbalancedClose } from '@bank/books';
import type { Logger } from '@bank/platform';
import type { WorkerMetrics } from './metrics';

/** The read models against the replay of the log: @bank/audit's auditReadModels, bound to the pool and store. */
export type VerifyReadModels = () => Promise<ReadModelReport>;

/** What the periodic audit found: the read models against the log (@bank/audit), and the day closes out of balance. */
export interface AuditFindings {
  readonly readModels: ReadModelReport;
  readonly unbalancedCloses: readonly UnbalancedClose[];
}

export interface AuditCheckResult {
  readonly ok: boolean;
  readonly mismatches: number;
  /** The accounts (user ids) named by the mismatches. */
  readonly accounts: string[];
  readonly at: string;
}

/**
 * The periodic audit: compares the read models (balances, transactions, the books, standing orders) with the replay of the event log, records the
 * result in the metrics and the log; a mismatch is an error-level log naming the accounts.
 */
export async function runAuditCheck(deps: { verify: () => Promise<AuditFindings>; logger: Logger; metrics: WorkerMetrics }): Promise<AuditCheckResult> {
  const at = new Date();
  let findings: AuditFindings;
  try {
    findings = await deps.verify();
  } catch (error) {
    deps.metrics.auditRuns.inc({ result: 'error' });
    deps.logger.error({ err: error }, 'Read-model audit could not run');
    throw error;
  }
  const { readModels, unbalancedCloses } = findings;
  const ok = readModels.ok && unbalancedCloses.length === 0;
  const mismatches = readModels.mismatches.length + unbalancedCloses.length;
  const accounts = readModels.customers;
  deps.metrics.auditRuns.inc({ result: ok ? 'ok' : 'mismatch' });
  deps.metrics.auditOk.set(ok ? 1 : 0);
  deps.metrics.auditMismatches.set(mismatches);
  deps.metrics.auditLastRun.set(Math.floor(at.getTime() / 1000));
  if (ok) {
    deps.logger.info({ audit: { ok: true } }, 'Read-model audit: the read models equal the replay of the event log');
  } else {
    deps.logger.error(
      { audit: { ok: false, mismatches: readModels.mismatches.slice(0, 100), unbalancedCloses, accounts } },
      `Read-model audit: ${mismatches} mismatch(es) between the read models and the event log; accounts: ${accounts.join(', ') || 'n/a'}`,
    );
  }
  return { ok, mismatches, accounts, at: at.toISOString() };
}

import type { Logger } from '@bank/platform';
import type { WorkerMetrics } from './metrics';

/** What the projector's verifyReadModels answers (the fields the audit check uses). */
export interface ReadModelAudit {
  readonly ok: boolean;
  readonly mismatches: readonly unknown[];
}

export type VerifyReadModels = () => Promise<ReadModelAudit>;

export interface AuditCheckResult {
  readonly ok: boolean;
  readonly mismatches: number;
  /** The accounts (user ids) named by the mismatches. */
  readonly accounts: string[];
  readonly at: string;
}

/** The user ids a mismatch names, whatever the exact shape the projector reports. */
export function accountsOf(mismatches: readonly unknown[]): string[] {
  const ids = new Set<string>();
  for (const mismatch of mismatches) {
    if (typeof mismatch !== 'object' || mismatch === null) continue;
    const m = mismatch as Record<string, unknown>;
    for (const key of ['userId', 'accountId', 'user_id', 'account']) {
      const value = m[key];
      if (typeof value === 'string' && value) ids.add(value);
    }
    if (typeof m.streamId === 'string' && m.streamId.startsWith('account-')) ids.add(m.streamId.slice('account-'.length));
  }
  return [...ids];
}

/**
 * The periodic audit: compares every balance of the read models with the replay of the event log, records the
 * result in the metrics and the log; a mismatch is an error-level log naming the accounts.
 */
export async function runAuditCheck(deps: { verify: VerifyReadModels; logger: Logger; metrics: WorkerMetrics }): Promise<AuditCheckResult> {
  const at = new Date();
  let report: ReadModelAudit;
  try {
    report = await deps.verify();
  } catch (error) {
    deps.metrics.auditRuns.inc({ result: 'error' });
    deps.logger.error({ err: error }, 'Read-model audit could not run');
    throw error;
  }
  const accounts = accountsOf(report.mismatches);
  deps.metrics.auditRuns.inc({ result: report.ok ? 'ok' : 'mismatch' });
  deps.metrics.auditOk.set(report.ok ? 1 : 0);
  deps.metrics.auditMismatches.set(report.mismatches.length);
  deps.metrics.auditLastRun.set(Math.floor(at.getTime() / 1000));
  if (report.ok) {
    deps.logger.info({ audit: { ok: true } }, 'Read-model audit: the read models equal the replay of the event log');
  } else {
    deps.logger.error(
      { audit: { ok: false, mismatches: report.mismatches.slice(0, 100), accounts } },
      `Read-model audit: ${report.mismatches.length} mismatch(es) between the read models and the event log; accounts: ${accounts.join(', ') || 'n/a'}`,
    );
  }
  return { ok: report.ok, mismatches: report.mismatches.length, accounts, at: at.toISOString() };
}

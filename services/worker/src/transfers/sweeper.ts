import type { EventStore } from '@bank/eventstore';
import type { Logger } from '@bank/platform';
import type pg from 'pg';
import type { WorkerMetrics } from '../metrics';
import { ensureTransferJob, type TransferQueues } from '../queues';
import { inspectTransfer } from './transferProcess';

export interface SweepDeps {
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly queues: TransferQueues;
  readonly logger: Logger;
  readonly settlementDelayMs: number;
  readonly metrics?: WorkerMetrics;
  /** Transfers looked at per run (oldest first). */
  readonly limit?: number;
}

export interface SweepReport {
  /** Unfinished transfers found in the read model. */
  readonly candidates: number;
  /** Steps whose job was missing (queued again), completed too early (replaced) or failed (retried). */
  readonly requeued: { readonly transferId: string; readonly step: string; readonly action: string }[];
}

/**
 * The read model's unfinished transfers: requested, debited, sent, and failed ones whose debit may still need a
 * refund (recently failed, or with a debit on the payer's account). Oldest first.
 */
const candidatesSql = `
  SELECT tr.id
    FROM rm.transfers tr
   WHERE tr.status IN ('requested', 'debited', 'sent')
      OR (tr.status = 'failed'
          AND (tr.updated_at > now() - interval '1 day'
               OR EXISTS (SELECT 1 FROM rm.transactions t WHERE t.id = tr.debit_transaction_id)))
   ORDER BY tr.requested_at
   LIMIT $1`;

/**
 * Finds transfers whose next step has no job (Redis lost its data, a process died between the append and the
 * enqueue) and queues that step again. The read model only names the candidates: the next step is worked out from
 * the transfer's own stream, so a lagging projector makes the sweeper late, never wrong.
 */
export async function sweepTransfers(deps: SweepDeps): Promise<SweepReport> {
  const { rows } = await deps.pool.query<{ id: string }>(candidatesSql, [deps.limit ?? 5000]);
  const requeued: SweepReport['requeued'][number][] = [];
  for (const { id } of rows) {
    try {
      const view = await inspectTransfer(deps.store, id);
      if (view.next === 'done') continue;
      const runAt = view.next === 'settle' && view.sentAt ? new Date(view.sentAt.getTime() + deps.settlementDelayMs) : undefined;
      const action = await ensureTransferJob(deps.queues, view.next, id, { stepStillDue: true, ...(runAt ? { runAt } : {}) });
      if (action !== 'exists') {
        requeued.push({ transferId: id, step: view.next, action });
        deps.metrics?.sweeperRequeued.inc({ step: view.next });
      }
    } catch (error) {
      deps.logger.error({ err: error, transferId: id }, 'Sweeper could not check a transfer');
    }
  }
  if (requeued.length > 0) deps.logger.warn({ requeued }, `Sweeper queued ${requeued.length} transfer step(s) again`);
  return { candidates: rows.length, requeued };
}

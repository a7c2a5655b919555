import type { CommandHandler } from '@bank/commands';
import { accountDecider, hasTransaction, nextTransferStep, streams, transferDecider } from '@bank/domain';
import type { Logger } from '@bank/platform';
import type pg from 'pg';
import { advanceTransfer, readTransfer, transferStepContext, type BusinessDateSource } from './transferSteps';

/**
 * What the log-driven process cannot see again by itself: records begun before the request became the debit
 * (`requested` with no debit: abandoned after TRANSFER_ABANDON_AFTER_MS, nothing moved). It also finishes any
 * transfer left unfinished longer than that (a safety net: every step is idempotent). The read model only names the
 * candidates; each is decided from its own streams, so a lagging projector makes the sweeper late, never wrong.
 */
export interface SweepDeps {
  readonly pool: pg.Pool;
  readonly commands: CommandHandler;
  readonly abandonAfterMs: number;
  readonly logger?: Logger;
  readonly now?: () => Date;
  /** The business date of the money commands of the steps it runs (the calendar's). */
  readonly businessDate?: BusinessDateSource;
  /** Transfers looked at per run (oldest first). */
  readonly limit?: number;
}

export interface SweepReport {
  readonly candidates: number;
  readonly actions: ReadonlyArray<{ readonly transferId: string; readonly action: string }>;
}

export const ABANDONED_REASON = 'The transfer request was not completed';

const candidatesSql = `
  SELECT id FROM rm.transfers
   WHERE (status IN ('requested', 'debited') AND requested_at < now() - $2::interval)
      OR (status = 'failed' AND updated_at > now() - interval '1 day')
   ORDER BY requested_at
   LIMIT $1`;

export async function sweepTransfers(deps: SweepDeps): Promise<SweepReport> {
  const now = deps.now?.() ?? new Date();
  const { rows } = await deps.pool.query<{ id: string }>(candidatesSql, [deps.limit ?? 5_000, `${deps.abandonAfterMs} milliseconds`]);
  const actions: { transferId: string; action: string }[] = [];
  for (const { id } of rows) {
    try {
      const record = await readTransfer(deps.commands, id);
      if (record.phase === 'none') continue;
      const { request } = record;
      const step = nextTransferStep(record, request);
      if (step === 'done') continue;
      // An external transfer in (or waiting for) an ACH file settles at the COB of its effective date.
      if (step === 'settle') continue;
      const debited = await deps.commands.read(accountDecider, streams.account(request.payerId), (state) => hasTransaction(state, request.debitTransactionId));
      if (!debited) {
        if (record.phase !== 'requested' || now.getTime() - new Date(request.requestedAt).getTime() < deps.abandonAfterMs) continue;
        await deps.commands.execute({
          decider: transferDecider,
          streamId: streams.transfer(id),
          decide: (state) => transferDecider.decide({ type: 'RecordFailure', reason: ABANDONED_REASON, now: now.toISOString() }, state),
          context: transferStepContext(id, 'fail', 0, 'sweeper'),
          commandType: 'RecordFailure',
        });
        actions.push({ transferId: id, action: 'abandoned' });
        continue;
      }
      const result = await advanceTransfer({ commands: deps.commands, ...(deps.businessDate ? { businessDate: deps.businessDate } : {}) }, request, { from: step, causationId: 'sweeper' });
      actions.push({ transferId: id, action: `ran ${result.ran.join(',') || 'nothing'}` });
    } catch (error) {
      deps.logger?.warn({ err: error, transferId: id }, 'Sweeper could not look at a transfer');
    }
  }
  if (actions.length > 0) deps.logger?.info({ actions }, 'Sweeper acted on unfinished transfers');
  return { candidates: rows.length, actions };
}

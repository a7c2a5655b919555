import { settlementActions } from '@bank/domain';
import { nowOf, onAchStream, readAchCycle, type AchCycleDeps } from './achCycleDeps';
import { isAlreadyDecided, onAccount, onTransfer, readTransferRecord } from './otherStreams';

export interface AchSettlementSummary {
  readonly files: number;
  readonly entries: number;
  readonly skipped: number;
}

/**
 * The COB step of `businessDate` (before the day close): every file effective on or before it and not yet settled
 * settles. For each external transfer, first its record (TransferSettled: ach-outbound → cash-at-fed; the commit
 * point, refused for a transfer returned meanwhile, which is skipped), then the payer's debit `completed`; the returns
 * the bank owed settle with the file's AchFileSettled. A run cut short settles again what is missing (each command
 * is idempotent; the file is recorded settled last).
 */
export async function settleAchFiles(deps: AchCycleDeps, businessDate: string): Promise<AchSettlementSummary> {
  const due = await readAchCycle(deps, (state) =>
    [...state.files]
      .filter(([, file]) => !file.settled && file.effectiveDate <= businessDate)
      .map(([fileId, file]) => ({ fileId, entries: file.traceNumbers.map((trace) => state.traces.get(trace)?.entry).filter((entry) => entry !== undefined) })),
  );
  let entries = 0;
  let skipped = 0;
  for (const file of due) {
    for (const entry of file.entries) {
      if (entry.returnOf !== undefined || entry.payerId === undefined) continue;
      const record = await readTransferRecord(deps.commands, entry.transferId);
      if (record.phase === 'none' || record.phase === 'failed' || record.phase === 'refunded') {
        skipped += 1;
        continue;
      }
      const actions = settlementActions(record.request, nowOf(deps), businessDate);
      try {
        await onTransfer(deps.commands, entry.transferId, `ach-settle:${entry.transferId}`, actions.transfer);
        await onAccount(deps.commands, record.request.payerId, `ach-settle-debit:${entry.transferId}`, actions.payer, entry.transferId);
        entries += 1;
      } catch (error) {
        if (!isAlreadyDecided(error)) throw error;
        skipped += 1;
      }
    }
    await onAchStream(deps, `ach-settled:${file.fileId}`, { type: 'SettleAchFile', fileId: file.fileId, businessDate, now: nowOf(deps) });
  }
  if (due.length > 0) deps.logger?.info({ businessDate, files: due.length, entries, skipped }, 'ACH files settled');
  return { files: due.length, entries, skipped };
}

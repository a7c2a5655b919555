import { buildAchFile, importReturnsFile, readAchCycle, settleAchFiles, writeReturnsFile, type AchCycleDeps, type BuiltAchFile, type ReturnsImport } from '@bank/ach';
import type { ReturnReasonCode } from '@bank/domain';
import { waitUntil } from '@bank/testkit';

/**
 * The ACH cycle driven by a test, as the worker and the ODFI drive it (docs/ach.md): a file built once the transfers
 * wait for it, a returns file for some of its entries imported, the file settled by the COB of its effective date.
 */
export interface AchDriver {
  buildFile(transferIds: readonly string[]): Promise<BuiltAchFile>;
  returnEntries(file: BuiltAchFile, accountNumbers: readonly string[], reasonCode?: ReturnReasonCode): Promise<ReturnsImport>;
  settleFile(file: BuiltAchFile): Promise<void>;
}

export function achDriver(cycle: AchCycleDeps): AchDriver {
  return {
    async buildFile(transferIds) {
      await waitUntil(async () => readAchCycle(cycle, (state) => transferIds.every((id) => state.waiting.has(id) || state.filed.has(id))), { what: 'the transfers queued for a file' });
      const file = await buildAchFile(cycle);
      if (!file) throw new Error('No entries waiting');
      return file;
    },
    async returnEntries(file, accountNumbers, reasonCode = 'R01') {
      const returns = writeReturnsFile({ outbound: file.text, accountNumbers, reasonCode, createdAt: new Date().toISOString() });
      return importReturnsFile(cycle, returns.text);
    },
    async settleFile(file) {
      await settleAchFiles(cycle, file.effectiveDate);
    },
  };
}

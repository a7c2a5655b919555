import { randomUUID, createHash } from 'node:crypto';
import type { EventData } from '@bank/domain';
import type { Position } from '@bank/eventstore';
import { isDomainError, unfileableEntries } from '@bank/domain';
import { nowOf, onAchStream, type AchCycleDeps } from './achCycleDeps';
import { isAlreadyDecided, onTransfer } from './otherStreams';

/** The file as recorded, and the position of its record (for the answer's X-Event-Position). */
export type BuiltAchFile = EventData<'AchFileBuilt'> & { readonly position?: Position | undefined };

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Where a test stops a builder as if its process died (after the file is recorded, before anything else). */
export type AchBuildFault = (point: 'file-recorded') => Promise<void>;

/**
 * Builds a file now from every waiting entry (a cut-off, or POST /admin/ach/files): one append on the achFiles
 * stream, decided on its state, so two builders at once give one file and nothing (the second's append conflicts and
 * is decided again on a state with nothing waiting), and a builder that dies before its append leaves every entry
 * waiting. Then each transfer's record moves to `sent` (idempotent; `transmitAchFiles` does it again for a file not
 * yet transmitted, should this process die here). Undefined when nothing waits.
 */
export async function buildAchFile(deps: AchCycleDeps, fault?: AchBuildFault): Promise<BuiltAchFile | undefined> {
  const fileId = randomUUID();
  const businessDate = await deps.businessDate();
  const now = nowOf(deps);
  const result = await onAchStream(deps, `ach-file:${fileId}`, { type: 'BuildAchFile', fileId, businessDate, settings: deps.settings, sha256: sha256Hex, now });
  const left = unfileableEntries(result.state);
  if (left.length > 0) deps.logger?.error({ entries: left }, 'ACH entries that no file can hold are left waiting');
  const built = result.events.find((event) => event.type === 'AchFileBuilt');
  if (built?.type !== 'AchFileBuilt') return undefined;
  deps.logger?.info({ fileId, entries: built.data.entries.length, effectiveDate: built.data.effectiveDate, sha256: built.data.sha256 }, 'ACH file built');
  await fault?.('file-recorded');
  await markSent(deps, built.data);
  return { ...built.data, position: result.position };
}

/** Each transfer of the file: its record moves to `sent` (a transfer returned or settled meanwhile stays as it is). */
export async function markSent(deps: AchCycleDeps, file: Pick<BuiltAchFile, 'fileId' | 'entries'>): Promise<void> {
  const now = nowOf(deps);
  const transfers = file.entries.filter((entry) => entry.payerId !== undefined);
  for (let start = 0; start < transfers.length; start += 64) {
    await Promise.all(
      transfers.slice(start, start + 64).map(async (entry) => {
        try {
          await onTransfer(deps.commands, entry.transferId, `ach-sent:${entry.transferId}`, { type: 'RecordSent', now });
        } catch (error) {
          if (isAlreadyDecided(error) || (isDomainError(error) && error.code === 'invalid_transfer_step')) return;
          throw error;
        }
      }),
    );
  }
}

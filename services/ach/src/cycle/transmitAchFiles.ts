import type { AchTransport, UploadReceipt } from '../achTransport';
import { nowOf, onAchStream, readAchCycle, type AchCycleDeps } from './achCycleDeps';
import { markSent } from './buildAchFile';

export interface TransmittedFile {
  readonly fileId: string;
  readonly name: string;
  readonly receipt: UploadReceipt;
}

/**
 * Uploads every file built and not yet transmitted (oldest first) and records AchFileTransmitted with where it went:
 * the event is the upload's audit record, with the log line. The transport's upload is idempotent (the same bytes
 * under the same name again: `alreadyThere`), so a retry after a crash between the upload and its record is safe.
 * A failed upload throws: the caller's job retries it (BullMQ backoff) and the files stay `created` meanwhile.
 */
export async function transmitAchFiles(deps: AchCycleDeps & { readonly transport: AchTransport }): Promise<TransmittedFile[]> {
  const pending = await readAchCycle(deps, (state) =>
    [...state.files].filter(([, file]) => !file.transmitted && file.text !== undefined).map(([fileId, file]) => ({ fileId, name: file.name, text: file.text as string, traceNumbers: [...file.traceNumbers] })),
  );
  const done: TransmittedFile[] = [];
  for (const file of pending) {
    const entries = await readAchCycle(deps, (state) => file.traceNumbers.map((trace) => state.traces.get(trace)?.entry).filter((entry) => entry !== undefined));
    await markSent(deps, { fileId: file.fileId, entries });
    const receipt = await deps.transport.upload(file.name, file.text);
    deps.logger?.info({ fileId: file.fileId, name: file.name, location: receipt.location, bytes: receipt.bytes, sha256: receipt.sha256, alreadyThere: receipt.alreadyThere, transport: deps.transport.kind }, 'ACH file uploaded');
    await onAchStream(deps, `ach-transmitted:${file.fileId}`, { type: 'RecordAchTransmission', fileId: file.fileId, location: receipt.location, now: nowOf(deps) });
    done.push({ fileId: file.fileId, name: file.name, receipt });
  }
  return done;
}

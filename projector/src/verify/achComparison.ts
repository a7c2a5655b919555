import { ACH_FILES_STREAM, type BankEvent } from '@bank/domain';
import type pg from 'pg';
import type { ReadModelTables } from '../schema/readModelTables';
import type { VerifyMismatch } from './verifyReadModels';

/**
 * audit:verify's part for the ACH read models: rm.ach_files and rm.ach_entries against the `achFiles` stream replayed
 * (every file built with its totals, SHA-256 and status; every entry with its file, transfer, amount and whether it
 * came back). A row missing, extra or different is a mismatch of stream `achFiles`.
 */
interface ExpectedFile {
  effectiveDate: string;
  entryCount: number;
  totalDebitCents: number;
  totalCreditCents: number;
  sha256: string;
  status: 'created' | 'transmitted';
}

interface ExpectedEntry {
  fileId: string;
  transferId: string;
  amountCents: number;
  returnedReason: string | null;
}

export class AchReplay {
  readonly files = new Map<string, ExpectedFile>();
  readonly entries = new Map<string, ExpectedEntry>();

  static concerns(streamId: string): boolean {
    return streamId === ACH_FILES_STREAM;
  }

  add(event: BankEvent): void {
    switch (event.type) {
      case 'AchFileBuilt': {
        const d = event.data;
        this.files.set(d.fileId, {
          effectiveDate: d.effectiveDate,
          entryCount: d.entries.length,
          totalDebitCents: d.totalDebitCents,
          totalCreditCents: d.totalCreditCents,
          sha256: d.sha256,
          status: 'created',
        });
        for (const entry of d.entries) this.entries.set(entry.traceNumber, { fileId: d.fileId, transferId: entry.transferId, amountCents: entry.amountCents, returnedReason: null });
        return;
      }
      case 'AchFileTransmitted': {
        const file = this.files.get(event.data.fileId);
        if (file) file.status = 'transmitted';
        return;
      }
      case 'AchReturnApplied': {
        const entry = this.entries.get(event.data.originalTraceNumber);
        if (entry) entry.returnedReason = event.data.reasonCode;
        return;
      }
      default:
        return;
    }
  }
}

interface FileRow {
  id: string;
  effective_date: string;
  entry_count: number;
  total_debit_cents: string;
  total_credit_cents: string;
  sha256: string;
  status: string;
}

interface EntryRow {
  trace_number: string;
  file_id: string;
  transfer_id: string;
  amount_cents: string;
  returned_reason: string | null;
}

export interface AchSnapshot {
  readonly files: FileRow[];
  readonly entries: EntryRow[];
}

export async function readAchSnapshot(client: pg.ClientBase, tables: ReadModelTables): Promise<AchSnapshot> {
  const files = await client.query<FileRow>(
    `SELECT id, effective_date::text AS effective_date, entry_count, total_debit_cents::text AS total_debit_cents, total_credit_cents::text AS total_credit_cents, sha256, status FROM ${tables.achFiles}`,
  );
  const entries = await client.query<EntryRow>(`SELECT trace_number, file_id, transfer_id, amount_cents::text AS amount_cents, returned_reason FROM ${tables.achEntries}`);
  return { files: files.rows, entries: entries.rows };
}

export function compareAch(replay: AchReplay, snapshot: AchSnapshot, note: (mismatch: VerifyMismatch) => void): void {
  const stream = ACH_FILES_STREAM;
  const files = new Map(snapshot.files.map((row) => [row.id, row]));
  for (const [fileId, expected] of replay.files) {
    const row = files.get(fileId);
    files.delete(fileId);
    if (!row) {
      note({ userId: '', stream, field: `achFiles[${fileId}]`, expected: 'present', actual: null });
      continue;
    }
    const actual: ExpectedFile = {
      effectiveDate: row.effective_date,
      entryCount: row.entry_count,
      totalDebitCents: Number(row.total_debit_cents),
      totalCreditCents: Number(row.total_credit_cents),
      sha256: row.sha256,
      status: row.status as ExpectedFile['status'],
    };
    for (const key of Object.keys(expected) as (keyof ExpectedFile)[]) {
      if (expected[key] !== actual[key]) note({ userId: '', stream, field: `achFiles[${fileId}].${key}`, expected: expected[key], actual: actual[key] });
    }
  }
  for (const extra of files.keys()) note({ userId: '', stream, field: `achFiles[${extra}]`, expected: null, actual: 'present' });

  const entries = new Map(snapshot.entries.map((row) => [row.trace_number, row]));
  for (const [trace, expected] of replay.entries) {
    const row = entries.get(trace);
    entries.delete(trace);
    if (!row) {
      note({ userId: '', stream, field: `achEntries[${trace}]`, expected: 'present', actual: null });
      continue;
    }
    const actual: ExpectedEntry = { fileId: row.file_id, transferId: row.transfer_id, amountCents: Number(row.amount_cents), returnedReason: row.returned_reason };
    for (const key of Object.keys(expected) as (keyof ExpectedEntry)[]) {
      if (expected[key] !== actual[key]) note({ userId: '', stream, field: `achEntries[${trace}].${key}`, expected: expected[key], actual: actual[key] });
    }
  }
  for (const extra of entries.keys()) note({ userId: '', stream, field: `achEntries[${extra}]`, expected: null, actual: 'present' });
}

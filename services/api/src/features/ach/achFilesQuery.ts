import { centsToDollars } from '@bank/domain';
import type pg from 'pg';
import { z } from 'zod';
import { cursorInstant, cursorInstantSql } from '../../http/keysetPage';

/** The key of GET /admin/ach/files (newest first): the page's last file's creation instant and id. */
export const achFileKey = z.object({ createdAt: cursorInstant, id: z.uuid() });
export type AchFileKey = z.output<typeof achFileKey>;

/** A file as GET /admin/ach/files lists it (amounts in dollars). */
export interface AchFileJson {
  readonly id: string;
  readonly createdAt: string;
  readonly effectiveDate: string;
  readonly entryCount: number;
  readonly totalDebit: number;
  readonly totalCredit: number;
  readonly status: 'created' | 'transmitted';
  readonly sha256: string;
}

export interface AchEntryJson {
  readonly traceNumber: string;
  readonly transferId: string;
  readonly amount: number;
  readonly routingNumber: string;
  readonly accountNumber: string;
  readonly name: string;
  readonly transactionCode: number;
}

interface FileRow {
  id: string;
  created_at: Date;
  cursor_at: string;
  effective_date: string;
  entry_count: number;
  total_debit_cents: string;
  total_credit_cents: string;
  status: 'created' | 'transmitted';
  sha256: string;
}

const FILE_COLUMNS = `id, created_at, ${cursorInstantSql('created_at')} AS cursor_at, effective_date::text AS effective_date, entry_count,
  total_debit_cents::text AS total_debit_cents, total_credit_cents::text AS total_credit_cents, status, sha256`;

function fileJson(row: FileRow): AchFileJson {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    effectiveDate: row.effective_date,
    entryCount: row.entry_count,
    totalDebit: centsToDollars(Number(row.total_debit_cents)),
    totalCredit: centsToDollars(Number(row.total_credit_cents)),
    status: row.status,
    sha256: row.sha256,
  };
}

/** Files newest first, after `after` (its key), `limit` at most, each with its cursor key. */
export async function queryAchFiles(db: pg.Pool, limit: number, after?: AchFileKey): Promise<{ json: AchFileJson; key: AchFileKey }[]> {
  const { rows } = await db.query<FileRow>(
    `SELECT ${FILE_COLUMNS} FROM rm.ach_files
      ${after ? 'WHERE (created_at, id) < ($2::timestamptz, $3::uuid)' : ''}
      ORDER BY created_at DESC, id DESC LIMIT $1`,
    after ? [limit, after.createdAt, after.id] : [limit],
  );
  return rows.map((row) => ({ json: fileJson(row), key: { createdAt: row.cursor_at, id: row.id } }));
}

/** One file with its entries in file order, or undefined. */
export async function queryAchFile(db: pg.Pool, id: string): Promise<(AchFileJson & { readonly entries: AchEntryJson[] }) | undefined> {
  if (!z.uuid().safeParse(id).success) return undefined;
  const { rows } = await db.query<FileRow>(`SELECT ${FILE_COLUMNS} FROM rm.ach_files WHERE id = $1`, [id]);
  const row = rows[0];
  if (!row) return undefined;
  const entries = await db.query<{ trace_number: string; transfer_id: string; amount_cents: string; routing_number: string; account_number: string; name: string; transaction_code: number }>(
    `SELECT trace_number, transfer_id, amount_cents::text AS amount_cents, routing_number, account_number, name, transaction_code
       FROM rm.ach_entries WHERE file_id = $1 ORDER BY position_in_file`,
    [id],
  );
  return {
    ...fileJson(row),
    entries: entries.rows.map((entry) => ({
      traceNumber: entry.trace_number,
      transferId: entry.transfer_id,
      amount: centsToDollars(Number(entry.amount_cents)),
      routingNumber: entry.routing_number,
      accountNumber: entry.account_number,
      name: entry.name,
      transactionCode: entry.transaction_code,
    })),
  };
}

/** A file's text and name, or undefined. */
export async function queryAchFileText(db: pg.Pool, id: string): Promise<{ name: string; content: string } | undefined> {
  if (!z.uuid().safeParse(id).success) return undefined;
  const { rows } = await db.query<{ name: string; content: string }>('SELECT name, content FROM rm.ach_files WHERE id = $1', [id]);
  return rows[0];
}

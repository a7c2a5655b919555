import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyEncoder, type CopyEncoder } from '../../changes/columnValues';
import { CopyChunks } from '../../changes/copyChunks';
import type { JournalColumns } from './journalBatch';

/** The columns of rm.journal_lines a batch writes, in the order its arrays (and COPY's fields) come. */
export const JOURNAL_COLUMNS = [
  'position',
  'line_no',
  'event_id',
  'recorded_at',
  'business_date',
  'account_key',
  'side',
  'amount_cents',
  'customer_id',
  'account_type',
  'transfer_id',
  'actor_id',
  'description',
] as const;

/**
 * The description is free text, escaped for COPY (copyEncoder); every other column holds what needs no escaping
 * (positions, numbers, uuids, ISO dates and times, the chart's keys and the domain's enums): written as it is, a
 * null as `\N` — the load's hot path.
 */
const plain: CopyEncoder = (value) => (value === null || value === undefined ? '\\N' : String(value));
const encoders: readonly CopyEncoder[] = JOURNAL_COLUMNS.map((name) => (name === 'description' ? copyEncoder({ name, type: 'text' }) : plain));

/** COPY of a batch's lines into `table` (fails with a duplicate key, 23505, when one of them exists). */
export async function copyJournalLines(client: pg.ClientBase, table: string, lines: JournalColumns): Promise<void> {
  const columns = JOURNAL_COLUMNS.map((name) => lines[name]);
  const rows = columns[0]!.length;
  const last = columns.length - 1;
  const chunks = new CopyChunks();
  for (let r = 0; r < rows; r += 1) {
    let line = '';
    for (let c = 0; c < last; c += 1) line += encoders[c]!(columns[c]![r]) + '\t';
    chunks.add(line + encoders[last]!(columns[last]![r]) + '\n');
  }
  await pipeline(Readable.from(chunks.finish()), client.query(copyFrom(`COPY ${table} (${JOURNAL_COLUMNS.join(', ')}) FROM STDIN`)));
}

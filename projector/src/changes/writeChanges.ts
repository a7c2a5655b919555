import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { ProjectionError } from '../projections/projectionError';
import { EventApplyError, isTransientDatabaseError } from '../runner/eventDispatcher';
import type { BatchChanges } from './batchChanges';
import { newRowGroups, tableStatement, type RowGroup, type Statement } from './changeStatements';
import { copyEncoder } from './columnValues';
import { CopyChunks } from './copyChunks';
import { boundValues } from './sqlLiterals';
import type { ChangeSource, FoldedTable } from './tableChanges';

type Client = pg.ClientBase;

/** Runs a statement, its arrays sent in array text encoded here (boundValues). */
export function runStatement<R extends pg.QueryResultRow = pg.QueryResultRow>(client: Client, statement: Statement): Promise<pg.QueryResult<R>> {
  return client.query<R>(statement.text, boundValues(statement.values));
}

/**
 * Writes a batch's folded changes inside the caller's transaction: one statement per table changed (inserts,
 * updates and the check that updated rows exist, see tableStatement), then the projections' own statements.
 * Throws an EventApplyError naming the first event whose update found no row.
 */
export async function writeChanges(client: Client, changes: BatchChanges): Promise<void> {
  for (const table of changes.byTable.values()) {
    const statement = tableStatement(table);
    if (!statement) continue;
    const { rows } = await runStatement<{ key: string }>(client, statement);
    if (rows.length > 0) throw missingRows(table, rows);
  }
  await runStatements(client, changes);
}

/**
 * The bulk variant for a rebuild's fresh tables: the rows the batch inserts go in with COPY (one per set of
 * columns), then one statement per table for the updates of rows inserted by earlier batches, then the batch
 * writers (by their `copy` when they have one) and the projections' own statements. A COPY refuses a key
 * that exists already (an event inserting a row twice: a replayed fact); the caller then rolls the batch back and
 * writes it with writeChanges, whose inserts do nothing on an existing key. A table whose key is built after the
 * load (TableInfo.keyAfterLoad) takes its new rows only: the statement of its other updates goes to `afterLoad`.
 */
export async function copyChanges(client: Client, changes: BatchChanges, afterLoad?: (table: FoldedTable, statement: Statement) => void): Promise<void> {
  for (const table of changes.byTable.values()) {
    for (const group of newRowGroups(table)) await copyRows(client, table, group);
    if (table.info.keyAfterLoad) {
      // No key to find the rows by yet: the updates of rows inserted by earlier batches wait for it, in log order.
      const statement = tableStatement(table, { afterCopy: true, requiredBefore: true });
      if (statement) {
        if (!afterLoad) throw new ProjectionError(`${table.info.qualified} has no primary key yet and nothing to keep its updates for after the load`);
        afterLoad(table, statement);
      }
      continue;
    }
    const statement = tableStatement(table, { afterCopy: true });
    if (!statement) continue;
    const { rows } = await runStatement<{ key: string }>(client, statement);
    if (rows.length > 0) throw missingRows(table, rows);
  }
  for (const writer of changes.writers.values()) {
    if (writer.copy) await writer.copy(client, changes.layout.tables);
    else for (const statement of writer.statements(changes.layout.tables)) await runStatement(client, statement);
  }
  for (const statement of changes.statements) await runStatement(client, statement);
}

/** Rows per COPY of a held table (each its own statement, so none holds a transaction long). */
const HELD_COPY_ROWS = 50_000;

/**
 * Writes a table a rebuild held over many batches (heldDuringRebuild) into its fresh table: its rows by COPY, a few
 * statements of HELD_COPY_ROWS rows each, then the updates of keys whose first change was an update (their rows must
 * exist: when they do not, an EventApplyError names the first event that needed one). A row refused by the server
 * (a constraint) fails the write with the table and the server's message, which names the row.
 */
export async function writeHeldRows(client: Client, table: FoldedTable): Promise<void> {
  try {
    for (const group of newRowGroups(table)) {
      for (let start = 0; start < group.rows.length; start += HELD_COPY_ROWS) {
        await copyRows(client, table, { columns: group.columns, rows: group.rows.slice(start, start + HELD_COPY_ROWS) });
      }
    }
  } catch (error) {
    if (isTransientDatabaseError(error)) throw error;
    const detail = (error as { detail?: unknown }).detail;
    throw new ProjectionError(`Writing the rows of ${table.info.qualified} held over the rebuild failed: ${(error as Error).message}${typeof detail === 'string' ? ` (${detail})` : ''}`);
  }
  const statement = tableStatement(table, { afterCopy: true });
  if (!statement) return;
  const { rows } = await runStatement<{ key: string }>(client, statement);
  if (rows.length > 0) throw missingRows(table, rows);
}

/** True for the error a COPY gets when one of its keys exists already. */
export function isDuplicateKeyError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

async function runStatements(client: Client, changes: BatchChanges): Promise<void> {
  for (const statement of changes.allStatements()) await runStatement(client, statement);
}

/**
 * COPY of one group of new rows. The text is encoded before the COPY starts, so that the statement (and its
 * transaction) lasts only as long as the server takes to read it.
 */
async function copyRows(client: Client, table: FoldedTable, group: RowGroup): Promise<void> {
  const { rows } = group;
  if (rows.length === 0) return;
  const encoders = group.columns.map((name) => copyEncoder(table.info.columns.get(name)!));
  const last = group.columns.length - 1;
  const chunks = new CopyChunks();
  for (let r = 0; r < rows.length; r += 1) {
    const { row, position } = rows[r]!;
    let line = '';
    // The position column is last; it needs no escaping.
    for (let c = 0; c < last; c += 1) line += encoders[c]!(row[group.columns[c]!]) + '\t';
    chunks.add(line + position + '\n');
  }
  const names = group.columns.map((name) => pg.escapeIdentifier(name)).join(', ');
  await pipeline(Readable.from(chunks.finish()), client.query(copyFrom(`COPY ${table.info.qualified} (${names}) FROM STDIN`)));
}

/** The error for updates whose rows do not exist: it names the first event (in log order) that needed one. */
function missingRows(table: FoldedTable, rows: readonly { key: string }[]): EventApplyError {
  const uuid = table.info.columns.get(table.info.key)!.type === 'uuid';
  const normal = (key: string) => (uuid ? key.toLowerCase() : key);
  const missing = new Set(rows.map((row) => normal(row.key)));
  let first: { key: string; source: ChangeSource } | undefined;
  for (const entry of table.required()) {
    if (!missing.has(normal(entry.key))) continue;
    if (!first || entry.source.positionText < first.source.positionText) first = entry;
  }
  const { key, source } = first!;
  const message = `${source.type} of ${source.streamId} at ${source.positionText} refers to ${table.info.qualified} row ${key}, which does not exist`;
  return new EventApplyError(source.recorded, new ProjectionError(message));
}

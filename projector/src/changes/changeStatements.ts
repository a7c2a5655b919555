import pg from 'pg';
import { columnParam } from './columnValues';
import { sqlLiteral } from './sqlLiterals';
import { lastValues, type FoldedTable, type NewRow } from './tableChanges';

export interface Statement {
  readonly text: string;
  readonly values: unknown[];
}

const ident = (name: string) => pg.escapeIdentifier(name);

/** A statement's array values, bound as parameters (`$n::type[]`, typed so that the statement can be prepared). */
class Params {
  readonly values: unknown[] = [];
  array(type: string, values: unknown[]): string {
    this.values.push(values);
    return `$${this.values.length}::${type}[]`;
  }
}

/** The message of the error a raising statement (`raisingIn`) raises when rows its updates need do not exist. */
export const MISSING_ROWS_MESSAGE = 'bank.projector: rows that updates need do not exist';

/** New rows with the same columns: the column names (the position column last) and the rows. */
export interface RowGroup {
  readonly columns: readonly string[];
  readonly rows: NewRow[];
}

/** The rows to insert, grouped by their set of columns (one INSERT … SELECT FROM unnest, or one COPY, per group). */
export function newRowGroups(changes: FoldedTable): RowGroup[] {
  const groups = new Map<string, RowGroup>();
  for (const newRow of changes.newRows()) {
    const names = Object.keys(newRow.row);
    const shape = names.join(',');
    let group = groups.get(shape);
    if (!group) {
      changes.checkColumns(names);
      group = { columns: [...names, changes.positionColumn], rows: [] };
      groups.set(shape, group);
    }
    group.rows.push(newRow);
  }
  return [...groups.values()];
}

/** The value of a column of a new row (its position column from the position). */
export function valueOf(newRow: NewRow, column: string, positionColumn: string): unknown {
  return column === positionColumn ? newRow.position : newRow.row[column];
}

function insertSql(changes: FoldedTable, group: RowGroup, params: Params): string {
  const { info, positionColumn } = changes;
  const arrays = group.columns.map((name) => {
    const column = info.columns.get(name)!;
    return params.array(column.type, group.rows.map((row) => columnParam(column, valueOf(row, name, positionColumn))));
  });
  return `INSERT INTO ${info.qualified} (${group.columns.map(ident).join(', ')})
    SELECT * FROM unnest(${arrays.join(', ')}) ON CONFLICT (${ident(info.key)}) DO NOTHING`;
}

/**
 * One UPDATE for every key with updates: each column is set from the last update kept for it when that update is
 * after the row's position (else the row keeps its value), and the row's position moves to the last update's.
 * Per row and column, the update's position is sent as NULL when it is the row's last one (the usual case: the
 * statement stays small), and as '' (before every position: never applies) when the row's updates leave the
 * column alone.
 */
function updateSql(changes: FoldedTable, onlyRequired: boolean, params: Params): string | undefined {
  const { info, positionColumn } = changes;
  const entries = [...changes.keysToUpdate(onlyRequired)];
  if (entries.length === 0) return undefined;
  const columns = new Map<string, { values: unknown[]; positions: (string | null)[] }>();
  entries.forEach((entry, index) => {
    for (const [name, patch] of lastValues(entry)) {
      let column = columns.get(name);
      if (!column) {
        changes.checkColumns([name]);
        column = { values: new Array<unknown>(entries.length).fill(null), positions: new Array<string | null>(entries.length).fill('') };
        columns.set(name, column);
      }
      column.values[index] = columnParam(info.columns.get(name)!, patch.value);
      column.positions[index] = patch.position === entry.updatedAt ? null : patch.position;
    }
  });
  const keyType = info.columns.get(info.key)!.type;
  const sources = [params.array(keyType, entries.map((entry) => entry.key)), params.array('text', entries.map((entry) => entry.updatedAt))];
  const aliases = ['k', 'at'];
  const assignments: string[] = [];
  const p = ident(positionColumn);
  let n = 0;
  for (const [name, column] of columns) {
    const type = info.columns.get(name)!.type;
    sources.push(params.array(type, column.values), params.array('text', column.positions));
    aliases.push(`v${n}`, `p${n}`);
    assignments.push(`${ident(name)} = CASE WHEN t.${p} < COALESCE(u.p${n}, u.at) THEN u.v${n} ELSE t.${ident(name)} END`);
    n += 1;
  }
  assignments.push(`${p} = u.at`);
  return `UPDATE ${info.qualified} AS t SET ${assignments.join(', ')}
      FROM unnest(${sources.join(', ')}) AS u(${aliases.join(', ')})
     WHERE t.${ident(info.key)} = u.k AND t.${p} < u.at`;
}

export interface TableStatementOptions {
  /** The new rows were COPYed in (into a table where none of them existed); only other keys' updates remain. */
  readonly afterCopy?: boolean;
  /** Instead of returning the missing keys, raise MISSING_ROWS_MESSAGE through `require_row` of this (quoted) schema. */
  readonly raisingIn?: string;
  /**
   * A key counts as existing only when its row's position is before the event that needed it: for updates applied
   * after the rows of later batches were inserted (a table whose key is built after a rebuild's load), a row the log
   * inserts only after its update must still be missing, as it was when the update came.
   */
  readonly requiredBefore?: boolean;
}

/**
 * The batch's changes to one table as ONE statement, returning the keys (as text) that updates needed and that
 * did not exist before it:
 *
 *     WITH i0 AS (INSERT … SELECT * FROM unnest(…) ON CONFLICT (key) DO NOTHING),    -- new rows, merged
 *          u AS (UPDATE … FROM unnest(…) … WHERE key = u.k AND position < u.at)        -- rows that existed
 *     SELECT k FROM unnest(required keys) WHERE NOT EXISTS (…)
 *
 * The parts of one statement share its snapshot: the UPDATE does not see the rows the INSERTs add (they are
 * already merged), only rows that existed before — exactly the rows on which the batch's updates still matter.
 */
export function tableStatement(changes: FoldedTable, options: TableStatementOptions = {}): Statement | undefined {
  const { info } = changes;
  const params = new Params();
  const parts: string[] = [];
  if (!options.afterCopy) {
    let n = 0;
    for (const group of newRowGroups(changes)) parts.push(`i${n++} AS (${insertSql(changes, group, params)})`);
  }
  const update = updateSql(changes, options.afterCopy === true, params);
  if (update) parts.push(`u AS (${update})`);
  const required = [...changes.required()];
  if (parts.length === 0 && required.length === 0) return undefined;
  const missing = () => {
    const keys = params.array(info.columns.get(info.key)!.type, required.map((entry) => entry.key));
    if (!options.requiredBefore) {
      return `SELECT r.k::text AS key FROM unnest(${keys}) AS r(k)
      WHERE NOT EXISTS (SELECT 1 FROM ${info.qualified} AS e WHERE e.${ident(info.key)} = r.k)`;
    }
    const positions = params.array('text', required.map((entry) => entry.source.positionText));
    return `SELECT r.k::text AS key FROM unnest(${keys}, ${positions}) AS r(k, at)
      WHERE NOT EXISTS (SELECT 1 FROM ${info.qualified} AS e WHERE e.${ident(info.key)} = r.k AND e.${ident(changes.positionColumn)} < r.at)`;
  };
  let check: string;
  if (required.length === 0) check = options.raisingIn ? 'SELECT 1' : 'SELECT NULL::text AS key WHERE false';
  else if (options.raisingIn) check = `SELECT ${options.raisingIn}.require_row(NOT EXISTS (${missing()}), ${sqlLiteral(MISSING_ROWS_MESSAGE)})`;
  else check = missing();
  return { text: parts.length ? `WITH ${parts.join(',\n')}\n${check}` : check, values: params.values };
}

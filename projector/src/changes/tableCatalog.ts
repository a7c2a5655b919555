import type pg from 'pg';
import { schemaIdent } from '../schema/readModelSchema';

/** One column of a read-model table, as the catalog describes it. */
export interface ColumnInfo {
  readonly name: string;
  /** `format_type` of the column: `uuid`, `text`, `bigint`, `timestamp with time zone`, `jsonb`, … */
  readonly type: string;
}

/** What the batch writer needs to know of a table: its columns and their types, its key. */
export interface TableInfo {
  /** Unqualified name, e.g. `transactions`. */
  readonly name: string;
  /** Quoted, schema-qualified name, e.g. `"rm"."transactions"`. */
  readonly qualified: string;
  /** The single-column primary key. */
  readonly key: string;
  /**
   * A rebuild's build schema only: the key's primary key constraint is built after the load (prepareBulkLoad), so no
   * statement may rely on it before (ON CONFLICT on it, updates found by it).
   */
  readonly keyAfterLoad?: boolean;
  /** Writable columns by name (generated columns left out). */
  readonly columns: ReadonlyMap<string, ColumnInfo>;
}

export type TableCatalog = ReadonlyMap<string, TableInfo>;

interface ColumnRow {
  table_name: string;
  column_name: string;
  column_type: string;
  is_key: boolean;
}

/**
 * Reads the tables of a read-model schema from PostgreSQL's catalog: the migrations stay the one place where
 * columns and types are declared, and the writer casts its arrays to exactly those types. `keysAfterLoad` names the
 * key of each table whose primary key a bulk load dropped until it ends (table → key column).
 */
export async function loadTableCatalog(db: Pick<pg.ClientBase, 'query'>, schema: string, keysAfterLoad: ReadonlyMap<string, string> = new Map()): Promise<TableCatalog> {
  const { rows } = await db.query<ColumnRow>(
    `SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS column_type,
            coalesce(a.attnum = ANY (i.indkey::int2[]), false) AS is_key
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
       LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
      WHERE n.nspname = $1 AND c.relkind = 'r'
      ORDER BY c.relname, a.attnum`,
    [schema],
  );
  const s = schemaIdent(schema);
  const tables = new Map<string, { key: string[]; columns: Map<string, ColumnInfo> }>();
  for (const row of rows) {
    const table = tables.get(row.table_name) ?? { key: [], columns: new Map<string, ColumnInfo>() };
    table.columns.set(row.column_name, { name: row.column_name, type: row.column_type });
    if (row.is_key) table.key.push(row.column_name);
    tables.set(row.table_name, table);
  }
  const catalog = new Map<string, TableInfo>();
  for (const [name, table] of tables) {
    const later = table.key.length === 0 ? keysAfterLoad.get(name) : undefined;
    if (later !== undefined) table.key.push(later);
    // Tables without a single-column key (schema_migrations has one; anything else is not a projection's table).
    if (table.key.length !== 1) continue;
    const quoted = /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
    catalog.set(name, { name, qualified: `${s}.${quoted}`, key: table.key[0]!, columns: table.columns, ...(later !== undefined ? { keyAfterLoad: true } : {}) });
  }
  return catalog;
}

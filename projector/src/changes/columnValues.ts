import type { ColumnInfo } from './tableCatalog';

/**
 * A projection's value as the parameter of a column of that type: jsonb gets JSON text (a projection hands over
 * the value itself, never its JSON), timestamps ISO text; null and undefined are NULL.
 */
export function columnParam(column: ColumnInfo, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (column.type === 'jsonb' || column.type === 'json') return JSON.stringify(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  return value;
}

const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_SPECIALS = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function copyText(text: string): string {
  return COPY_SPECIAL.test(text) ? text.replace(COPY_SPECIALS, (c) => COPY_ESCAPES[c]!) : text;
}

/** Encodes values of one column as fields of COPY's text format (tab-separated, `\N` for NULL, backslash escapes). */
export type CopyEncoder = (value: unknown) => string;

const NUMERIC = new Set(['bigint', 'integer', 'smallint', 'double precision', 'real']);

/** The encoder for a column, chosen once per column (the bulk load's hot path). */
export function copyEncoder(column: ColumnInfo): CopyEncoder {
  if (column.type === 'jsonb' || column.type === 'json') return (value) => (value === null || value === undefined ? '\\N' : copyText(JSON.stringify(value)));
  if (column.type === 'boolean') return (value) => (value === null || value === undefined ? '\\N' : value ? 't' : 'f');
  if (NUMERIC.has(column.type) || column.type.startsWith('numeric')) return (value) => (value === null || value === undefined ? '\\N' : String(value));
  return (value) => {
    if (value === null || value === undefined) return '\\N';
    if (typeof value === 'string') return copyText(value);
    if (value instanceof Date) return value.toISOString();
    return copyText(String(columnParam(column, value)));
  };
}

const NEEDS_ESCAPE = /['\\]/;
const SQL_ESCAPES = /['\\]/g;
const ELEMENT_NEEDS_ESCAPE = /['"\\]/;
const ELEMENT_ESCAPES = /['"\\]/g;
/** In an array element inside an E'' literal: `\` is `\\` twice over, `"` gets an (escaped) backslash, `'` doubles. */
const ELEMENT_ESCAPE: Record<string, string> = { '\\': '\\\\\\\\', '"': '\\\\"', "'": "''" };

/** A string as a SQL literal: `'…'`, or `E'…'` with backslashes doubled when it has any (whatever standard_conforming_strings). */
export function quoteLiteral(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return `'${text}'`;
  const escaped = text.replace(SQL_ESCAPES, (c) => c + c);
  return text.includes('\\') ? `E'${escaped}'` : `'${escaped}'`;
}

/**
 * An array as one SQL literal of PostgreSQL's array text, `E'{"a","b",NULL}'`, escaped in one pass per element
 * (the writer's hot path: a batch's values travel in a few of these).
 */
export function arrayLiteral(values: readonly unknown[]): string {
  let out = "E'{";
  for (let i = 0; i < values.length; i += 1) {
    if (i > 0) out += ',';
    const value = values[i];
    if (value === null || value === undefined) {
      out += 'NULL';
      continue;
    }
    const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : String(value);
    out += ELEMENT_NEEDS_ESCAPE.test(text) ? `"${text.replace(ELEMENT_ESCAPES, (c) => ELEMENT_ESCAPE[c]!)}"` : `"${text}"`;
  }
  return `${out}}'`;
}

/** A SQL literal for a value (arrays as PostgreSQL array text, other objects as JSON text). */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`Not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return `'${value.toISOString()}'`;
  if (typeof value === 'string') return quoteLiteral(value);
  if (Array.isArray(value)) return arrayLiteral(value);
  return quoteLiteral(JSON.stringify(value));
}

/**
 * `text` with every `$n` replaced by the literal of `values[n - 1]`, for statements sent together in one simple
 * query. The text must have no `$n` inside its own string literals.
 */
export function renderStatement(text: string, values: readonly unknown[] = []): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index < 0 || index >= values.length) throw new RangeError(`No value for $${n}`);
    return sqlLiteral(values[index]);
  });
}

const PARAM_ELEMENT_NEEDS_ESCAPE = /["\\]/;
const PARAM_ELEMENT_ESCAPES = /["\\]/g;

/**
 * An array bound as one parameter, in PostgreSQL's array text (`{"a","b",NULL,12,t}`), written in one pass: pg's own
 * encoding runs two regular-expression replaces on every element, and a rebuild binds millions of them (the interest
 * accrual's day balances, a few arrays of a batch's rows). Strings are quoted (the only escapes inside quotes are `"`
 * and `\`), numbers, bigints and booleans are written bare, null and undefined as NULL. Any other element (a Date, an
 * object, a nested array) leaves the array as it is, for pg to encode.
 */
export function arrayParam(values: readonly unknown[]): string | readonly unknown[] {
  // Most arrays are of strings that need no escape (uuids, dates, positions, account kinds): joined at once.
  let plain = values.length > 0;
  for (let i = 0; plain && i < values.length; i += 1) {
    const value = values[i];
    plain = typeof value === 'string' && !PARAM_ELEMENT_NEEDS_ESCAPE.test(value);
  }
  if (plain) return `{"${values.join('","')}"}`;
  let out = '{';
  for (let i = 0; i < values.length; i += 1) {
    if (i > 0) out += ',';
    const value = values[i];
    if (typeof value === 'string') out += PARAM_ELEMENT_NEEDS_ESCAPE.test(value) ? `"${value.replace(PARAM_ELEMENT_ESCAPES, '\\$&')}"` : `"${value}"`;
    else if (value === null || value === undefined) out += 'NULL';
    else if (typeof value === 'number' || typeof value === 'bigint') out += String(value);
    else if (typeof value === 'boolean') out += value ? 't' : 'f';
    else return values;
  }
  return `${out}}`;
}

/** A statement's values with each array in array text (arrayParam): what the writer sends. */
export function boundValues(values: readonly unknown[]): unknown[] {
  return values.map((value) => (Array.isArray(value) ? arrayParam(value) : value));
}

import type { ColumnInfo } from './tableCatalog';

/**
 * How a column's values are kept as numbers: `encode` gives the number for a value it can give back exactly (else
 * undefined: the value is kept as it is), `decode` gives the value back.
 */
interface NumberCodec {
  encode(value: unknown): number | undefined;
  decode(stored: number): unknown;
}

const NUMBERS: NumberCodec = {
  encode: (value) => (typeof value === 'number' ? value : undefined),
  decode: (stored) => stored,
};

const BOOLEANS: NumberCodec = {
  encode: (value) => (value === true ? 1 : value === false ? 0 : undefined),
  decode: (stored) => stored === 1,
};

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The digits of `text` from `start` to `end` as a number, or -1 when one is not a digit. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i += 1) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * The instant of a timestamp written as `Date.prototype.toISOString` writes it (`2025-01-31T23:59:59.123Z`), in
 * milliseconds, or undefined for any other text, so that `new Date(ms).toISOString()` gives the same text back.
 * Checked field by field (no allocation): `Date.parse` alone would take `2025-02-30` as 2 March.
 */
export function isoMillis(text: string): number | undefined {
  if (text.length !== 24 || text.charCodeAt(23) !== 90 /* Z */) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[19] !== '.') return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  const hour = digits(text, 11, 13);
  const minute = digits(text, 14, 16);
  const second = digits(text, 17, 19);
  const millis = digits(text, 20, 23);
  // Years before 100 (Date.UTC reads them as 19xx) are kept as text.
  if (year < 100 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || millis < 0) return undefined;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, millis);
}

const TIMESTAMPS: NumberCodec = {
  encode: (value) => (typeof value === 'string' ? isoMillis(value) : undefined),
  decode: (stored) => new Date(stored).toISOString(),
};

const NUMERIC_TYPES = new Set(['bigint', 'integer', 'smallint', 'double precision', 'real']);

/** The codec for a column's type, or undefined when its values are kept as they are (text, uuid, jsonb, …). */
function codecOf(column: ColumnInfo): NumberCodec | undefined {
  if (column.type === 'timestamp with time zone') return TIMESTAMPS;
  if (column.type === 'boolean') return BOOLEANS;
  if (NUMERIC_TYPES.has(column.type) || column.type.startsWith('numeric')) return NUMBERS;
  return undefined;
}

const ABSENT = 0;
const ENCODED = 1;
const KEPT = 2;

/**
 * One column of a held table (HeldTable), one slot per row. Numbers, booleans and timestamps are kept in a
 * Float64Array: a million rows of balances are then three arrays, not a million objects for the garbage collector to
 * walk, and a balance's update stores a number instead of pointing an old row at the young string or object the
 * event carried. Any other value (text, a timestamp in another form, null) is kept as it is.
 */
export class HeldColumn {
  private readonly codec: NumberCodec | undefined;
  private state: Uint8Array;
  private numbers: Float64Array | undefined;
  private readonly values: unknown[] = [];

  constructor(
    readonly name: string,
    column: ColumnInfo | undefined,
    capacity: number,
  ) {
    this.codec = column ? codecOf(column) : undefined;
    this.state = new Uint8Array(capacity);
    if (this.codec) this.numbers = new Float64Array(capacity);
  }

  /** Makes room for `capacity` slots (the held table grows its columns together). */
  grow(capacity: number): void {
    const state = new Uint8Array(capacity);
    state.set(this.state);
    this.state = state;
    if (this.numbers) {
      const numbers = new Float64Array(capacity);
      numbers.set(this.numbers);
      this.numbers = numbers;
    }
  }

  set(slot: number, value: unknown): void {
    const encoded = this.codec?.encode(value);
    if (encoded !== undefined) {
      // A value kept before is let go of.
      if (this.state[slot] === KEPT) this.values[slot] = undefined;
      this.numbers![slot] = encoded;
      this.state[slot] = ENCODED;
      return;
    }
    this.values[slot] = value;
    this.state[slot] = KEPT;
  }

  /** True when the slot's row has this column (its insert or an update set it). */
  has(slot: number): boolean {
    return this.state[slot] !== ABSENT;
  }

  get(slot: number): unknown {
    const state = this.state[slot];
    if (state === ENCODED) return this.codec!.decode(this.numbers![slot]!);
    return state === KEPT ? this.values[slot] : undefined;
  }
}

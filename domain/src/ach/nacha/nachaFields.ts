/** The fixed-width fields of NACHA records: numeric (zero-filled, right-justified) and alphanumeric (left, space-filled). */

export const RECORD_LENGTH = 94;
export const BLOCKING_FACTOR = 10;
export const PADDING_RECORD = '9'.repeat(RECORD_LENGTH);

/** A numeric field: digits, zero-filled on the left. Refuses a negative value or one too long for the field. */
export function numeric(value: number | bigint | string, length: number, field: string): string {
  const text = typeof value === 'string' ? value : value.toString();
  if (!/^\d*$/.test(text)) throw new RangeError(`${field} must be digits: ${text}`);
  if (text.length > length) throw new RangeError(`${field} does not fit in ${length} digits: ${text}`);
  return text.padStart(length, '0');
}

/**
 * An alphanumeric field: letters as NACHA accepts them (printable ASCII; accents dropped, anything else a space),
 * cut to the field's length and space-filled on the right. For names and descriptions.
 */
export function alpha(value: string, length: number): string {
  return toNachaText(value).slice(0, length).padEnd(length, ' ');
}

/** An identifier (account number, company id …): refused rather than cut when it does not fit. */
export function identifier(value: string, length: number, field: string): string {
  const text = toNachaText(value);
  if (text !== value.trim()) throw new RangeError(`${field} has characters a NACHA file cannot hold: ${value}`);
  if (text.length > length) throw new RangeError(`${field} does not fit in ${length} characters: ${value}`);
  return text.padEnd(length, ' ');
}

/** Printable ASCII only, accents dropped, trimmed: the text a field holds once written and read back. */
export function toNachaText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, ' ')
    .trim();
}

/** What an alphanumeric field of `length` reads back as after `alpha`. */
export function fittedText(value: string, length: number): string {
  return toNachaText(value).slice(0, length).trimEnd();
}

/** YYYY-MM-DD → YYMMDD (years 2000–2099). */
export function yymmdd(date: string, field: string): string {
  const match = /^20(\d{2})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new RangeError(`${field} must be a date of 2000–2099: ${date}`);
  return `${match[1]}${match[2]}${match[3]}`;
}

/** YYMMDD → YYYY-MM-DD (20YY), undefined when not a calendar date. */
export function readYymmdd(text: string): string | undefined {
  if (!/^\d{6}$/.test(text)) return undefined;
  const date = `20${text.slice(0, 2)}-${text.slice(2, 4)}-${text.slice(4, 6)}`;
  const at = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === date ? date : undefined;
}

/** Sum of the RDFI identifications (first 8 digits of each entry's routing number), its last 10 digits. */
export function entryHash(rdfiRoutingNumbers: Iterable<string>): bigint {
  let sum = 0n;
  for (const routing of rdfiRoutingNumbers) sum += BigInt(routing.slice(0, 8));
  return sum % 10_000_000_000n;
}

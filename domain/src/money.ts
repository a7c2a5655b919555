/**
 * Money is an integer number of cents (a safe integer) everywhere inside the bank.
 * Dollars appear only at the edges (JSON, forms): parsed from their decimal string, never multiplied as floats.
 */

/** Largest amount a single input may carry: 1,000,000,000 dollars. */
export const MAX_DOLLARS = 1_000_000_000;
export const MAX_AMOUNT_CENTS = MAX_DOLLARS * 100;
/**
 * Largest balance an account may hold (just under 10 trillion dollars): 15 significant digits,
 * so every balance converts to a JSON number and back exactly.
 */
export const MAX_BALANCE_CENTS = 999_999_999_999_999;

export type MoneyParseError = 'empty' | 'not_a_number' | 'not_finite' | 'exponent' | 'too_many_decimals' | 'negative' | 'too_large';

export const moneyParseMessages: Readonly<Record<MoneyParseError, string>> = {
  empty: 'Amount is required',
  not_a_number: 'Amount must be a number',
  not_finite: 'Amount must be a finite number',
  exponent: 'Amount must be written without an exponent',
  too_many_decimals: 'Amount must have at most two decimals',
  negative: 'Amount must not be negative',
  too_large: 'Amount must not exceed 1,000,000,000 dollars',
};

export interface ParseDollarsOptions {
  /** Accept a leading minus sign. Default false. */
  readonly allowNegative?: boolean;
}

export type ParseDollarsResult =
  | { readonly ok: true; readonly cents: number }
  | { readonly ok: false; readonly error: MoneyParseError; readonly message: string };

const DECIMAL = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;
const TOO_MANY_DECIMALS = /^-?\d+\.\d{3,}$/;

function failure(error: MoneyParseError): ParseDollarsResult {
  return { ok: false, error, message: moneyParseMessages[error] };
}

/**
 * Dollars (a JSON number or a decimal string such as "1250.5") → integer cents.
 * Numbers are read from their shortest string form (`String(n)`), so 0.1 + 0.2 is refused (too many decimals).
 * Refuses: NaN, ±Infinity, exponent notation, more than 2 decimals, negatives (unless allowed),
 * more than 1,000,000,000 dollars, and anything that is not a number or a string.
 */
export function parseDollars(input: unknown, options: ParseDollarsOptions = {}): ParseDollarsResult {
  let text: string;
  if (typeof input === 'number') {
    if (Number.isNaN(input)) return failure('not_a_number');
    if (!Number.isFinite(input)) return failure('not_finite');
    text = String(input);
  } else if (typeof input === 'string') {
    text = input.trim();
    if (text === '') return failure('empty');
  } else {
    return failure('not_a_number');
  }
  if (/e/i.test(text) && /^[-+]?[\d.]+e[-+]?\d+$/i.test(text)) return failure('exponent');
  const match = DECIMAL.exec(text);
  if (!match) return failure(TOO_MANY_DECIMALS.test(text) ? 'too_many_decimals' : 'not_a_number');
  const [, sign, integerDigits = '0', fractionDigits = ''] = match;
  const integerPart = integerDigits.replace(/^0+(?=\d)/, '');
  if (integerPart.length > String(MAX_DOLLARS).length) return failure('too_large');
  const cents = Number(integerPart) * 100 + Number(fractionDigits.padEnd(2, '0'));
  if (cents > MAX_AMOUNT_CENTS) return failure('too_large');
  if (sign === '-' && cents !== 0) {
    if (!options.allowNegative) return failure('negative');
    return { ok: true, cents: -cents };
  }
  return { ok: true, cents };
}

export class MoneyFormatError extends Error {
  override readonly name = 'MoneyFormatError';
  readonly code: MoneyParseError;
  constructor(code: MoneyParseError) {
    super(moneyParseMessages[code]);
    this.code = code;
  }
}

/** Like parseDollars but throws MoneyFormatError (a 400 at the API, not a business refusal). */
export function toCents(input: unknown, options: ParseDollarsOptions = {}): number {
  const result = parseDollars(input, options);
  if (!result.ok) throw new MoneyFormatError(result.error);
  return result.cents;
}

/** True for an integer number of cents the bank can hold (|cents| ≤ MAX_BALANCE_CENTS). */
export function isCents(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && Math.abs(value) <= MAX_BALANCE_CENTS;
}

function assertCents(cents: number): void {
  if (!isCents(cents)) throw new RangeError(`Not an integer number of cents within the bank's range: ${cents}`);
}

/** 125050 → "1250.50" (exact decimal string, always two decimals, "-" for negatives). */
export function centsToDecimalString(cents: number): string {
  assertCents(cents);
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const remainder = abs % 100;
  const whole = (abs - remainder) / 100;
  return `${negative ? '-' : ''}${whole}.${String(remainder).padStart(2, '0')}`;
}

/**
 * 125050 → 1250.5: the JSON number whose shortest form is exactly the decimal amount
 * (balances have at most 15 significant digits, so the conversion is exact both ways).
 */
export function centsToDollars(cents: number): number {
  const dollars = Number(centsToDecimalString(cents));
  return dollars === 0 ? 0 : dollars;
}

/** 125050 → "$1,250.50"; -5 → "-$0.05". */
export function formatUsd(cents: number): string {
  const decimal = centsToDecimalString(cents);
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = '00'] = (negative ? decimal.slice(1) : decimal).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${grouped}.${fraction}`;
}

/** Cents as a bigint (ledger totals) → dollars for the HTTP edge (exact up to 2^53 cents of each part). */
export function bigCentsToDollars(cents: bigint): number {
  return Number(bigCentsToDecimalString(cents));
}

/** Cents as a bigint → '-1234.05'. */
export function bigCentsToDecimalString(cents: bigint): string {
  const negative = cents < 0n;
  const magnitude = negative ? -cents : cents;
  const whole = magnitude / 100n;
  const fraction = (magnitude % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole.toString()}.${fraction}`;
}

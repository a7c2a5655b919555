import { isReturnReasonCode, isTransactionCode, returnReasons, transactionCodes } from '@bank/domain/ach';

/** Where the ACH screens live (inside the audit area: auditors and admins). */
export const ACH_PATH = '/audit/ach';

export function achFilePath(id: string): string {
  return `${ACH_PATH}/files/${encodeURIComponent(id)}`;
}

/** The first characters of a SHA-256: enough to tell files apart; the whole hash is its title and what Copy copies. */
export const SHORT_SHA = 12;

export function shortSha(sha256: string): string {
  return sha256.length > SHORT_SHA ? `${sha256.slice(0, SHORT_SHA)}…` : sha256;
}

/** "R01 Insufficient funds"; a code the bank does not know is shown as it came. */
export function reasonWords(code: string): string {
  return isReturnReasonCode(code) ? `${code} ${returnReasons[code]}` : code;
}

const accountWords = { checking: 'Checking', savings: 'Savings' } as const;
const kindWords = { entry: '', prenote: ' prenote', return: ' return' } as const;

/** "27 Checking debit", "31 Savings credit return"; an unknown code alone. */
export function transactionCodeWords(code: number): string {
  if (!isTransactionCode(code)) return String(code);
  const { account, side, kind } = transactionCodes[code];
  return `${code} ${accountWords[account]} ${side}${kindWords[kind]}`;
}

/** A return the bank sends (21/26/31/36): its entry names the return, not a transfer. */
export function isReturnEntry(code: number): boolean {
  return isTransactionCode(code) && transactionCodes[code].kind === 'return';
}

export const statusWords = { created: 'Created', transmitted: 'Transmitted' } as const;

/** "1 entry", "3 entries". */
export function countOf(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The name a downloaded file gets when the server sends none. */
export function achFileName(file: { id: string; effectiveDate: string }): string {
  return `ach-${file.effectiveDate}-${file.id.slice(0, 8)}.txt`;
}

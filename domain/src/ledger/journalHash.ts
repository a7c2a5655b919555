import type { JournalLine } from './postingRules';

/**
 * The canonical text of one journal line for a day close's hash. The services feed SHA-256 with
 * `journalLineText(…) + '\n'` for every line of the day in (position, line number) order; the hex digest is the
 * close's `journalHash`. Any change to a line (amount, account, side, customer, description…) changes the hash.
 */
export function journalLineText(position: string, lineNo: number, businessDate: string, line: JournalLine): string {
  return [
    position,
    String(lineNo),
    businessDate,
    line.accountKey,
    line.side,
    String(line.amountCents),
    line.customerId ?? '',
    line.accountType ?? '',
    line.transferId ?? '',
    line.actorId ?? '',
    JSON.stringify(line.description),
  ].join('|');
}

import { centsToDecimalString, type AccountKind, type StatementLine } from '@bank/domain';

export type StatementFormat = 'json' | 'csv' | 'pdf';

/** `statement-<account>-<from>-<to>.<format>` */
export function statementFileName(account: AccountKind, from: string, to: string, format: Exclude<StatementFormat, 'json'>): string {
  return `statement-${account}-${from}-${to}.${format}`;
}

/** +amount for a credit, −amount for a debit, in cents. */
export function signedCents(line: Pick<StatementLine, 'direction' | 'amountCents'>): number {
  return line.direction === 'credit' ? line.amountCents : -line.amountCents;
}

/** "1250.50", "-3.00": exact, two decimals. */
export function decimal(cents: number): string {
  return centsToDecimalString(cents);
}

/** A line's kind as a reader of the statement calls it. */
export function kindLabel(line: Pick<StatementLine, 'kind' | 'direction'>): string {
  switch (line.kind) {
    case 'transfer':
      return line.direction === 'debit' ? 'Transfer out' : 'Transfer in';
    case 'credit':
      return 'Money in';
    case 'debit':
      return 'Money out';
    case 'refund':
      return 'Refund';
    case 'interest':
      return 'Interest';
    case 'adjustment':
      return 'Adjustment';
    case 'staff':
      return 'Bank posting';
    case 'reversal':
      return 'Reversal';
  }
}

import type { Writable } from 'node:stream';
import { csvRecord } from '../audit/csv';
import { decimal, signedCents } from './statementFormat';
import type { StatementItem, StatementSource } from './statementSource';
import { writeOut } from './writeOut';

export const STATEMENT_CSV_HEADER = ['date', 'transaction_id', 'description', 'type', 'amount', 'balance_after'] as const;

/** Lines written per chunk. */
const LINES_PER_CHUNK = 200;

/** A spreadsheet must not take a description for a formula (=, +, -, @ at the start): it is kept as text. */
export function safeText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One CSV record (with its CRLF) per item: the opening balance, each transaction, the closing balance. */
export function csvOfItem(source: Pick<StatementSource, 'period'>, item: StatementItem): string {
  switch (item.kind) {
    case 'opening':
      return `${csvRecord([source.period.from, '', 'Opening balance', 'opening', '', decimal(item.openingCents)])}\r\n`;
    case 'line': {
      const { line } = item;
      return `${csvRecord([line.date, line.transactionId, safeText(line.description), line.direction, decimal(signedCents(line)), decimal(line.balanceAfterCents)])}\r\n`;
    }
    case 'closing':
      return `${csvRecord([source.period.to, '', 'Closing balance', 'closing', '', decimal(item.totals.closingCents)])}\r\n`;
  }
}

/**
 * Streams the statement as CSV (RFC 4180, CRLF): the header, the opening balance, one record per transaction (amount
 * signed: negative for money out), the closing balance. Writes as the log is read; `flush` after each chunk (the
 * compression middleware's, so a compressed answer streams too).
 */
export async function writeStatementCsv(source: StatementSource, items: AsyncIterable<StatementItem>, out: Writable, flush: () => void = () => {}): Promise<void> {
  let chunk = `${csvRecord([...STATEMENT_CSV_HEADER])}\r\n`;
  let lines = 0;
  for await (const item of items) {
    chunk += csvOfItem(source, item);
    lines += 1;
    if (lines % LINES_PER_CHUNK === 0) {
      await writeOut(out, chunk);
      flush();
      chunk = '';
    }
  }
  if (chunk !== '') await writeOut(out, chunk);
  flush();
}

import type { Writable } from 'node:stream';
import { bigCentsToDecimalString, centsToDecimalString, type TrialBalance } from '@bank/domain';
import type { EventStore } from '@bank/eventstore';
import { csvRecord } from '../audit/csv';
import { safeText } from '../statements/statementCsv';
import { writeOut } from '../statements/writeOut';
import { ledgerEntryJson, type EntryRow } from './ledgerEntries';

export const TRIAL_BALANCE_CSV_HEADER = ['code', 'key', 'name', 'type', 'debits', 'credits', 'balance'] as const;
export const ENTRIES_CSV_HEADER = ['position', 'event_id', 'at', 'business_date', 'side', 'amount', 'customer_id', 'account', 'transfer_id', 'actor_id', 'description'] as const;

/**
 * The trial balance as CSV (RFC 4180, CRLF, amounts as exact decimals): one record per account of the chart, then
 * the totals, named "Total (balanced)" or "Total (out of balance)".
 */
export function trialBalanceCsv(trialBalance: TrialBalance): string {
  const records = [csvRecord([...TRIAL_BALANCE_CSV_HEADER])];
  for (const row of trialBalance.rows) {
    records.push(csvRecord([row.code, row.key, row.name, row.type, bigCentsToDecimalString(row.debitsCents), bigCentsToDecimalString(row.creditsCents), bigCentsToDecimalString(row.balanceCents)]));
  }
  const total = trialBalance.balanced ? 'Total (balanced)' : 'Total (out of balance)';
  records.push(csvRecord(['', '', total, '', bigCentsToDecimalString(trialBalance.totalDebitsCents), bigCentsToDecimalString(trialBalance.totalCreditsCents), '']));
  return `${records.join('\r\n')}\r\n`;
}

function entryRecord(store: Pick<EventStore, 'positionToken'>, row: EntryRow): string {
  const entry = ledgerEntryJson(store, row);
  return csvRecord([
    entry.position,
    entry.eventId,
    entry.at,
    entry.businessDate,
    entry.side,
    centsToDecimalString(Number(row.amount_cents)),
    entry.customerId,
    entry.account,
    entry.transferId,
    entry.actorId,
    // A spreadsheet must not take a description (an admin's reason) for a formula.
    safeText(entry.description),
  ]);
}

/**
 * Streams an account's entries as CSV, a page of the read model per chunk, as they are read. Nothing is written
 * before the first page is read, so that a failing first read still answers with a status.
 */
export async function writeEntriesCsv(store: Pick<EventStore, 'positionToken'>, pages: AsyncIterable<EntryRow[]>, out: Writable, flush: () => void): Promise<void> {
  let header = `${csvRecord([...ENTRIES_CSV_HEADER])}\r\n`;
  for await (const rows of pages) {
    await writeOut(out, `${header}${rows.map((row) => entryRecord(store, row)).join('\r\n')}\r\n`);
    header = '';
    flush();
  }
  if (header !== '') await writeOut(out, header);
  flush();
}

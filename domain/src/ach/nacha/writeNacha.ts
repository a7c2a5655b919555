import { isValidRoutingNumber } from '../routingNumber';
import {
  isCreditCode,
  type Addenda,
  type BatchHeader,
  type EntryDetail,
  type FileHeader,
  type NachaFileInput,
  type ServiceClassCode,
} from './nachaTypes';
import { alpha, BLOCKING_FACTOR, entryHash, identifier, numeric, PADDING_RECORD, RECORD_LENGTH, yymmdd } from './nachaFields';

/**
 * Writes a NACHA file: file header, each batch (header, entries with their addenda, control), file control, then
 * all-9 records up to a multiple of ten. Computes every control (counts, entry hashes, debit and credit totals,
 * block count) and, when not given, each batch's service class code (220 credits only, 225 debits only, 200
 * mixed) and number (1, 2, …). Records end with "\n". Throws a RangeError for a value the layout cannot hold.
 */
export function writeNachaFile(input: NachaFileInput): string {
  const records: string[] = [fileHeaderRecord(input.header)];
  let fileEntryAddenda = 0;
  let fileHash = 0n;
  let fileDebit = 0n;
  let fileCredit = 0n;
  input.batches.forEach((batch, index) => {
    const batchNumber = batch.header.batchNumber ?? index + 1;
    const serviceClassCode = batch.header.serviceClassCode ?? serviceClassOf(batch.entries);
    const header: BatchHeader = { ...batch.header, serviceClassCode, batchNumber };
    records.push(batchHeaderRecord(header));
    let count = 0;
    let debit = 0n;
    let credit = 0n;
    for (const entry of batch.entries) {
      records.push(entryRecord(entry));
      count += 1;
      if (entry.addenda) {
        records.push(addendaRecord(entry.addenda, entry.traceNumber));
        count += 1;
      }
      if (isCreditCode(entry.transactionCode)) credit += BigInt(entry.amountCents);
      else debit += BigInt(entry.amountCents);
    }
    const hash = entryHash(batch.entries.map((entry) => entry.rdfiRoutingNumber));
    records.push(
      [
        '8',
        numeric(serviceClassCode, 3, 'Service class code'),
        numeric(count, 6, 'Batch entry/addenda count'),
        numeric(hash, 10, 'Batch entry hash'),
        numeric(debit, 12, 'Batch total debit'),
        numeric(credit, 12, 'Batch total credit'),
        identifier(header.companyIdentification, 10, 'Company identification'),
        ' '.repeat(19),
        ' '.repeat(6),
        numeric(header.odfiIdentification, 8, 'ODFI identification'),
        numeric(batchNumber, 7, 'Batch number'),
      ].join(''),
    );
    fileEntryAddenda += count;
    fileHash += hash;
    fileDebit += debit;
    fileCredit += credit;
  });
  const withControl = records.length + 1;
  const blocks = Math.ceil(withControl / BLOCKING_FACTOR);
  records.push(
    [
      '9',
      numeric(input.batches.length, 6, 'Batch count'),
      numeric(blocks, 6, 'Block count'),
      numeric(fileEntryAddenda, 8, 'File entry/addenda count'),
      numeric(fileHash % 10_000_000_000n, 10, 'File entry hash'),
      numeric(fileDebit, 12, 'File total debit'),
      numeric(fileCredit, 12, 'File total credit'),
      ' '.repeat(39),
    ].join(''),
  );
  while (records.length < blocks * BLOCKING_FACTOR) records.push(PADDING_RECORD);
  for (const record of records) {
    if (record.length !== RECORD_LENGTH) throw new Error(`A record of ${record.length} characters: ${record}`);
  }
  return `${records.join('\n')}\n`;
}

/** 220 when every entry is a credit, 225 when every one is a debit, 200 otherwise (and for an empty batch). */
export function serviceClassOf(entries: readonly EntryDetail[]): ServiceClassCode {
  if (entries.length === 0) return 200;
  if (entries.every((entry) => isCreditCode(entry.transactionCode))) return 220;
  if (entries.every((entry) => !isCreditCode(entry.transactionCode))) return 225;
  return 200;
}

function routing(value: string, field: string): string {
  if (!isValidRoutingNumber(value)) throw new RangeError(`${field} is not a valid routing number: ${value}`);
  return value;
}

function fileHeaderRecord(header: FileHeader): string {
  if (!/^[A-Z0-9]$/.test(header.fileIdModifier)) throw new RangeError(`File ID modifier must be A–Z or 0–9: ${header.fileIdModifier}`);
  if (!/^(\d{4})?$/.test(header.creationTime)) throw new RangeError(`Creation time must be HHMM: ${header.creationTime}`);
  return [
    '1',
    '01',
    ` ${routing(header.immediateDestination, 'Immediate destination')}`,
    ` ${routing(header.immediateOrigin, 'Immediate origin')}`,
    yymmdd(header.creationDate, 'File creation date'),
    header.creationTime.padEnd(4, ' '),
    header.fileIdModifier,
    '094',
    numeric(BLOCKING_FACTOR, 2, 'Blocking factor'),
    '1',
    alpha(header.immediateDestinationName, 23),
    alpha(header.immediateOriginName, 23),
    alpha(header.referenceCode, 8),
  ].join('');
}

function batchHeaderRecord(header: BatchHeader): string {
  if (!/^[A-Z]{3}$/.test(header.secCode)) throw new RangeError(`SEC code must be three letters: ${header.secCode}`);
  if (!/^( {3}|\d{3}|)$/.test(header.settlementDate)) throw new RangeError(`Settlement date must be a Julian day: ${header.settlementDate}`);
  return [
    '5',
    numeric(header.serviceClassCode, 3, 'Service class code'),
    alpha(header.companyName, 16),
    alpha(header.companyDiscretionaryData, 20),
    identifier(header.companyIdentification, 10, 'Company identification'),
    header.secCode,
    alpha(header.companyEntryDescription, 10),
    alpha(header.companyDescriptiveDate, 6),
    yymmdd(header.effectiveEntryDate, 'Effective entry date'),
    header.settlementDate.padEnd(3, ' '),
    identifier(header.originatorStatusCode, 1, 'Originator status code'),
    numeric(header.odfiIdentification, 8, 'ODFI identification'),
    numeric(header.batchNumber, 7, 'Batch number'),
  ].join('');
}

function traceNumber(value: string): string {
  if (!/^\d{15}$/.test(value)) throw new RangeError(`Trace number must be 15 digits: ${value}`);
  return value;
}

function entryRecord(entry: EntryDetail): string {
  if (!Number.isSafeInteger(entry.amountCents) || entry.amountCents < 0) throw new RangeError(`Amount must be whole cents: ${entry.amountCents}`);
  const rdfi = routing(entry.rdfiRoutingNumber, 'RDFI routing number');
  if (entry.accountNumber.trim() === '') throw new RangeError('Account number is required');
  return [
    '6',
    numeric(entry.transactionCode, 2, 'Transaction code'),
    rdfi,
    identifier(entry.accountNumber, 17, 'DFI account number'),
    numeric(entry.amountCents, 10, 'Amount'),
    identifier(entry.individualIdentification, 15, 'Individual identification number'),
    alpha(entry.individualName, 22),
    alpha(entry.discretionaryData, 2),
    entry.addenda ? '1' : '0',
    traceNumber(entry.traceNumber),
  ].join('');
}

function addendaRecord(addenda: Addenda, entryTraceNumber: string): string {
  if (addenda.type === '05') {
    return [
      '7',
      '05',
      alpha(addenda.paymentRelatedInformation, 80),
      numeric(addenda.sequenceNumber, 4, 'Addenda sequence number'),
      entryTraceNumber.slice(8),
    ].join('');
  }
  return [
    '7',
    '99',
    addenda.returnReasonCode,
    traceNumber(addenda.originalTraceNumber),
    addenda.dateOfDeath === '' ? ' '.repeat(6) : yymmdd(addenda.dateOfDeath, 'Date of death'),
    numeric(addenda.originalReceivingDfi, 8, 'Original receiving DFI identification'),
    alpha(addenda.addendaInformation, 44),
    entryTraceNumber,
  ].join('');
}

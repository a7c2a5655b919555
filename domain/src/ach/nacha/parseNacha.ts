import { isValidRoutingNumber } from '../routingNumber';
import { isReturnReasonCode } from './returnReasons';
import {
  isCreditCode,
  isTransactionCode,
  NachaFormatError,
  type Addenda,
  type Batch,
  type BatchControl,
  type BatchHeader,
  type EntryDetail,
  type FileControl,
  type FileHeader,
  type NachaFile,
  type ServiceClassCode,
} from './nachaTypes';
import { BLOCKING_FACTOR, entryHash, PADDING_RECORD, readYymmdd, RECORD_LENGTH } from './nachaFields';

const RECORD_NAMES: Record<string, string> = {
  '1': 'file header (1)',
  '5': 'batch header (5)',
  '6': 'entry detail (6)',
  '7': 'addenda (7)',
  '8': 'batch control (8)',
  '9': 'file control (9)',
};

/** One record of the file: its text and its 1-based line number; `field` reads NACHA's 1-based positions. */
class RecordLine {
  constructor(
    readonly text: string,
    readonly line: number,
  ) {}

  field(from: number, to: number): string {
    return this.text.slice(from - 1, to);
  }

  fail(problem: string): never {
    throw new NachaFormatError(this.line, problem);
  }

  digits(from: number, to: number, name: string): string {
    const value = this.field(from, to);
    if (!/^\d+$/.test(value)) this.fail(`${name} (positions ${from}–${to}) must be digits, not "${value}"`);
    return value;
  }

  number(from: number, to: number, name: string): number {
    return Number(this.digits(from, to, name));
  }

  bigint(from: number, to: number, name: string): bigint {
    return BigInt(this.digits(from, to, name));
  }

  date(from: number, to: number, name: string): string {
    const value = this.field(from, to);
    const date = readYymmdd(value);
    if (date === undefined) this.fail(`${name} (positions ${from}–${to}) must be a date YYMMDD, not "${value}"`);
    return date;
  }

  trimmed(from: number, to: number): string {
    return this.field(from, to).trimEnd();
  }
}

/**
 * Reads a NACHA file back, checking it whole: 94-character records in the order 1, (5, (6, 7?)*, 8)*, 9, then
 * all-9 padding to a multiple of ten; numeric fields, dates, transaction codes, routing check digits, return
 * reason codes, ascending trace numbers; every batch and file control (counts, entry hash, totals, block count).
 * Throws a NachaFormatError naming the first bad line (1-based; for a control that disagrees, the control's line).
 * Accepts "\n" or "\r\n" line ends and one final line end.
 */
export function parseNachaFile(text: string): NachaFile {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) throw new NachaFormatError(1, 'The file is empty');
  const records = lines.map((line, index) => new RecordLine(line, index + 1));
  // Each record's length is checked as the reading reaches it, so that the error names the first bad line whatever
  // is wrong with it (a field of line 3 before a short line 7).
  const sized = (record: RecordLine): RecordLine => {
    if (record.text.length !== RECORD_LENGTH) record.fail(`A record is ${RECORD_LENGTH} characters long; this one has ${record.text.length}`);
    const foreign = /[^\x20-\x7e]/.exec(record.text);
    if (foreign) record.fail(`A record holds printable ASCII only; position ${foreign.index + 1} holds U+${foreign[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
    return record;
  };
  let at = 0;
  const next = (expected: string): RecordLine => {
    const record = records[at];
    if (!record) throw new NachaFormatError(records.length + 1, `The file ends where a ${expected} was expected`);
    at += 1;
    return sized(record);
  };
  const peek = (): RecordLine | undefined => {
    const record = records[at];
    return record && sized(record);
  };

  const headerRecord = next(RECORD_NAMES['1']!);
  if (headerRecord.field(1, 1) !== '1') headerRecord.fail(`The file must start with a file header (1), not record type "${headerRecord.field(1, 1)}"`);
  const header = readFileHeader(headerRecord);

  const batches: Batch[] = [];
  for (;;) {
    const record = next(RECORD_NAMES['9']!);
    const type = record.field(1, 1);
    if (type === '5') {
      batches.push(readBatch(record, next, peek));
      continue;
    }
    if (type === '9' && record.text !== PADDING_RECORD) {
      const control = readFileControl(record);
      checkFileControl(record, control, batches);
      for (const padding of records.slice(at)) {
        if (sized(padding).text !== PADDING_RECORD) padding.fail('Only all-9 padding records may follow the file control');
      }
      checkBlocking(record, control, records.length);
      return { header, batches, control };
    }
    if (record.text === PADDING_RECORD) record.fail('A padding record (all 9) before the file control (9)');
    record.fail(`Expected a batch header (5) or the file control (9), found ${RECORD_NAMES[type] ?? `record type "${type}"`}`);
  }
}

function readFileHeader(record: RecordLine): FileHeader {
  record.digits(2, 3, 'Priority code');
  const destination = record.field(4, 13);
  if (!/^ \d{9}$/.test(destination)) record.fail(`Immediate destination (positions 4–13) must be a space and a 9-digit routing number, not "${destination}"`);
  const origin = record.field(14, 23);
  if (!/^( \d{9}|\d{10})$/.test(origin)) record.fail(`Immediate origin (positions 14–23) must be a space and a 9-digit routing number, or 10 digits, not "${origin}"`);
  const creationDate = record.date(24, 29, 'File creation date');
  const creationTime = record.field(30, 33);
  if (!/^(\d{4}| {4})$/.test(creationTime)) record.fail(`File creation time (positions 30–33) must be HHMM, not "${creationTime}"`);
  const modifier = record.field(34, 34);
  if (!/^[A-Z0-9]$/.test(modifier)) record.fail(`File ID modifier (position 34) must be A–Z or 0–9, not "${modifier}"`);
  if (record.field(35, 37) !== '094') record.fail(`Record size (positions 35–37) must be 094, not "${record.field(35, 37)}"`);
  if (record.field(38, 39) !== '10') record.fail(`Blocking factor (positions 38–39) must be 10, not "${record.field(38, 39)}"`);
  if (record.field(40, 40) !== '1') record.fail(`Format code (position 40) must be 1, not "${record.field(40, 40)}"`);
  return {
    immediateDestination: destination.trim(),
    immediateOrigin: origin.trim(),
    creationDate,
    creationTime: creationTime.trim(),
    fileIdModifier: modifier,
    immediateDestinationName: record.trimmed(41, 63),
    immediateOriginName: record.trimmed(64, 86),
    referenceCode: record.trimmed(87, 94),
  };
}

function serviceClass(record: RecordLine, from: number): ServiceClassCode {
  const code = record.number(from, from + 2, 'Service class code');
  if (code !== 200 && code !== 220 && code !== 225) record.fail(`Service class code must be 200, 220 or 225, not ${code}`);
  return code;
}

function readBatchHeader(record: RecordLine): BatchHeader {
  const serviceClassCode = serviceClass(record, 2);
  const secCode = record.field(51, 53);
  if (!/^[A-Z]{3}$/.test(secCode)) record.fail(`SEC code (positions 51–53) must be three letters, not "${secCode}"`);
  const settlementDate = record.field(76, 78);
  if (!/^(\d{3}| {3})$/.test(settlementDate)) record.fail(`Settlement date (positions 76–78) must be a Julian day or blank, not "${settlementDate}"`);
  return {
    serviceClassCode,
    companyName: record.trimmed(5, 20),
    companyDiscretionaryData: record.trimmed(21, 40),
    companyIdentification: record.trimmed(41, 50),
    secCode,
    companyEntryDescription: record.trimmed(54, 63),
    companyDescriptiveDate: record.trimmed(64, 69),
    effectiveEntryDate: record.date(70, 75, 'Effective entry date'),
    settlementDate: settlementDate.trim(),
    originatorStatusCode: record.field(79, 79),
    odfiIdentification: record.digits(80, 87, 'ODFI identification'),
    batchNumber: record.number(88, 94, 'Batch number'),
  };
}

function readEntry(record: RecordLine, header: BatchHeader): EntryDetail & { readonly announcesAddenda: boolean } {
  const code = record.number(2, 3, 'Transaction code');
  if (!isTransactionCode(code)) record.fail(`Transaction code ${record.field(2, 3)} is not one this bank handles (21–23, 26–28, 31–33, 36–38)`);
  if (header.serviceClassCode === 220 && !isCreditCode(code)) record.fail(`A debit (transaction code ${code}) in a credits-only batch (service class 220)`);
  if (header.serviceClassCode === 225 && isCreditCode(code)) record.fail(`A credit (transaction code ${code}) in a debits-only batch (service class 225)`);
  const rdfi = record.digits(4, 12, 'RDFI routing number');
  if (!isValidRoutingNumber(rdfi)) record.fail(`RDFI routing number ${rdfi} (positions 4–12) fails the check digit`);
  const accountNumber = record.trimmed(13, 29);
  if (accountNumber.trim() === '') record.fail('DFI account number (positions 13–29) is blank');
  const indicator = record.field(79, 79);
  if (indicator !== '0' && indicator !== '1') record.fail(`Addenda record indicator (position 79) must be 0 or 1, not "${indicator}"`);
  return {
    transactionCode: code,
    rdfiRoutingNumber: rdfi,
    accountNumber: accountNumber.trim(),
    amountCents: record.number(30, 39, 'Amount'),
    individualIdentification: record.trimmed(40, 54),
    individualName: record.trimmed(55, 76),
    discretionaryData: record.trimmed(77, 78),
    traceNumber: record.digits(80, 94, 'Trace number'),
    announcesAddenda: indicator === '1',
  };
}

function readAddenda(record: RecordLine, entry: EntryDetail): Addenda {
  const type = record.field(2, 3);
  if (type === '99') {
    const code = record.field(4, 6);
    if (!isReturnReasonCode(code)) record.fail(`Return reason code (positions 4–6) must be one of R01–R85, not "${code}"`);
    const deathField = record.field(22, 27);
    const dateOfDeath = deathField.trim() === '' ? '' : record.date(22, 27, 'Date of death');
    const trace = record.digits(80, 94, 'Trace number');
    if (trace !== entry.traceNumber) record.fail(`The addenda's trace number ${trace} is not its entry's (${entry.traceNumber})`);
    return {
      type: '99',
      returnReasonCode: code,
      originalTraceNumber: record.digits(7, 21, 'Original entry trace number'),
      dateOfDeath,
      originalReceivingDfi: record.digits(28, 35, 'Original receiving DFI identification'),
      addendaInformation: record.trimmed(36, 79),
    };
  }
  if (type === '05') {
    const sequence = record.digits(88, 94, 'Entry detail sequence number');
    if (sequence !== entry.traceNumber.slice(8)) record.fail(`The addenda's entry detail sequence number ${sequence} is not its entry's (${entry.traceNumber.slice(8)})`);
    return { type: '05', paymentRelatedInformation: record.trimmed(4, 83), sequenceNumber: record.number(84, 87, 'Addenda sequence number') };
  }
  return record.fail(`Addenda type code "${type}" is not supported (05 payment information, 99 return)`);
}

function readBatch(headerRecord: RecordLine, next: (expected: string) => RecordLine, peek: () => RecordLine | undefined): Batch {
  const header = readBatchHeader(headerRecord);
  const entries: EntryDetail[] = [];
  let count = 0;
  for (;;) {
    const record = next(RECORD_NAMES['8']!);
    const type = record.field(1, 1);
    if (type === '6') {
      const { announcesAddenda, ...entry } = readEntry(record, header);
      const previous = entries.at(-1);
      if (previous && entry.traceNumber <= previous.traceNumber) record.fail(`Trace numbers ascend within a batch: ${entry.traceNumber} follows ${previous.traceNumber}`);
      count += 1;
      let addenda: Addenda | undefined;
      if (announcesAddenda) {
        const addendaRecord = next(RECORD_NAMES['7']!);
        if (addendaRecord.field(1, 1) !== '7') addendaRecord.fail(`The entry on line ${record.line} announces an addenda (7); found ${RECORD_NAMES[addendaRecord.field(1, 1)] ?? 'another record'}`);
        addenda = readAddenda(addendaRecord, entry);
        count += 1;
      } else if (peek()?.field(1, 1) === '7') {
        peek()!.fail(`An addenda (7) after an entry that announces none (line ${record.line}, position 79)`);
      }
      entries.push(addenda ? { ...entry, addenda } : entry);
      continue;
    }
    if (type === '8') {
      const control = readBatchControl(record);
      checkBatchControl(record, header, control, entries, count);
      return { header, entries, control };
    }
    record.fail(`Expected an entry detail (6) or the batch control (8), found ${RECORD_NAMES[type] ?? `record type "${type}"`}`);
  }
}

function readBatchControl(record: RecordLine): BatchControl {
  return {
    serviceClassCode: serviceClass(record, 2),
    entryAddendaCount: record.number(5, 10, 'Entry/addenda count'),
    entryHash: record.bigint(11, 20, 'Entry hash'),
    totalDebitCents: record.bigint(21, 32, 'Total debit entry dollar amount'),
    totalCreditCents: record.bigint(33, 44, 'Total credit entry dollar amount'),
    companyIdentification: record.trimmed(45, 54),
    odfiIdentification: record.digits(80, 87, 'ODFI identification'),
    batchNumber: record.number(88, 94, 'Batch number'),
  };
}

function totals(entries: readonly EntryDetail[]): { debit: bigint; credit: bigint } {
  let debit = 0n;
  let credit = 0n;
  for (const entry of entries) {
    if (isCreditCode(entry.transactionCode)) credit += BigInt(entry.amountCents);
    else debit += BigInt(entry.amountCents);
  }
  return { debit, credit };
}

function disagree(record: RecordLine, name: string, stated: number | bigint | string, actual: number | bigint | string): void {
  if (stated !== actual) record.fail(`${name} ${String(stated)} disagrees with the file's ${String(actual)}`);
}

function checkBatchControl(record: RecordLine, header: BatchHeader, control: BatchControl, entries: readonly EntryDetail[], count: number): void {
  const { debit, credit } = totals(entries);
  disagree(record, 'Batch service class code', control.serviceClassCode, header.serviceClassCode);
  disagree(record, 'Batch entry/addenda count', control.entryAddendaCount, count);
  disagree(record, 'Batch entry hash', control.entryHash, entryHash(entries.map((entry) => entry.rdfiRoutingNumber)));
  disagree(record, 'Batch total debit', control.totalDebitCents, debit);
  disagree(record, 'Batch total credit', control.totalCreditCents, credit);
  disagree(record, 'Batch company identification', control.companyIdentification, header.companyIdentification);
  disagree(record, 'Batch ODFI identification', control.odfiIdentification, header.odfiIdentification);
  disagree(record, 'Batch number', control.batchNumber, header.batchNumber);
}

function readFileControl(record: RecordLine): FileControl {
  return {
    batchCount: record.number(2, 7, 'Batch count'),
    blockCount: record.number(8, 13, 'Block count'),
    entryAddendaCount: record.number(14, 21, 'Entry/addenda count'),
    entryHash: record.bigint(22, 31, 'Entry hash'),
    totalDebitCents: record.bigint(32, 43, 'Total debit entry dollar amount'),
    totalCreditCents: record.bigint(44, 55, 'Total credit entry dollar amount'),
  };
}

function checkFileControl(record: RecordLine, control: FileControl, batches: readonly Batch[]): void {
  let count = 0;
  let hash = 0n;
  let debit = 0n;
  let credit = 0n;
  for (const batch of batches) {
    count += batch.control.entryAddendaCount;
    hash += batch.control.entryHash;
    debit += batch.control.totalDebitCents;
    credit += batch.control.totalCreditCents;
  }
  disagree(record, 'File batch count', control.batchCount, batches.length);
  disagree(record, 'File entry/addenda count', control.entryAddendaCount, count);
  disagree(record, 'File entry hash', control.entryHash, hash % 10_000_000_000n);
  disagree(record, 'File total debit', control.totalDebitCents, debit);
  disagree(record, 'File total credit', control.totalCreditCents, credit);
}

function checkBlocking(record: RecordLine, control: FileControl, recordCount: number): void {
  if (recordCount % BLOCKING_FACTOR !== 0) record.fail(`The file has ${recordCount} records: not blocked by ${BLOCKING_FACTOR} (pad with all-9 records)`);
  disagree(record, 'File block count', control.blockCount, recordCount / BLOCKING_FACTOR);
}

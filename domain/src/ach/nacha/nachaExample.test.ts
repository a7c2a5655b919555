import { describe, expect, it } from 'vitest';
import { buildOutboundFile, traceNumberOf, type OutboundEntry, type OutboundFileOptions } from './outboundFile';
import { parseNachaFile } from './parseNacha';
import { describeReturnReason, isReturnReasonCode, returnReasons } from './returnReasons';

/**
 * An outbound file of the bank, written and then checked field by field against NACHA's record layouts
 * (positions are 1-based as in the Operating Rules' Appendix Three).
 */
const options: OutboundFileOptions = {
  bankRoutingNumber: '102000021',
  bankName: 'Summit Bank',
  destinationRoutingNumber: '011000015',
  destinationName: 'Federal Reserve Bank',
  companyIdentification: '1102000021',
  entryDescription: 'TRANSFER',
  createdAt: '2026-11-25T17:05:09.000Z',
  fileIdModifier: 'A',
  firstTraceSequence: 41,
};

const entries: OutboundEntry[] = [
  { transactionCode: 22, rdfiRoutingNumber: '021000021', accountNumber: '4000123456', amountCents: 12_345, name: 'Grace Hopper', individualIdentification: 'T9F2C1A7', effectiveDate: '2026-11-27' },
  { transactionCode: 32, rdfiRoutingNumber: '121000358', accountNumber: '99887766554433221', amountCents: 100, name: 'Alan Mathison Turing the Second', individualIdentification: 'T0000002', effectiveDate: '2026-11-27' },
  {
    transactionCode: 21,
    rdfiRoutingNumber: '011000015',
    accountNumber: '55-1234',
    amountCents: 250_000,
    name: 'Payroll Inc',
    individualIdentification: 'R0000003',
    effectiveDate: '2026-11-30',
    returnOf: { reasonCode: 'R03', originalTraceNumber: '011000010000077', originalReceivingDfi: '10200002' },
  },
];

const field = (record: string, from: number, to: number): string => record.slice(from - 1, to);

describe('an outbound file of three entries', () => {
  const file = buildOutboundFile(entries, options);
  const records = file.text.split('\n');

  it('is 94-character records in NACHA order, ending with a line end: exactly one block of ten', () => {
    expect(records.pop()).toBe('');
    expect(records).toHaveLength(10);
    for (const record of records) expect(record).toHaveLength(94);
    expect(records.map((record) => record[0]).join('')).toBe('1566856789');
  });

  it('a shorter file is padded to ten records with all-9 records, the block count 1', () => {
    const short = buildOutboundFile([entries[0]!], options).text.split('\n').slice(0, -1);
    expect(short.map((record) => record[0]).join('')).toBe('1568999999');
    expect(short.slice(5)).toEqual(Array.from({ length: 5 }, () => '9'.repeat(94)));
    expect(field(short[4]!, 8, 13)).toBe('000001');
    const eleven = buildOutboundFile([...entries, { ...entries[0]!, effectiveDate: '2026-12-01' }], options).text.split('\n').slice(0, -1);
    expect(eleven).toHaveLength(20);
    expect(field(eleven[12]!, 8, 13)).toBe('000002');
  });

  it('file header (1)', () => {
    const header = records[0]!;
    expect(field(header, 1, 1)).toBe('1');
    expect(field(header, 2, 3)).toBe('01'); // priority code
    expect(field(header, 4, 13)).toBe(' 011000015'); // immediate destination
    expect(field(header, 14, 23)).toBe(' 102000021'); // immediate origin: the bank
    expect(field(header, 24, 29)).toBe('261125'); // creation date YYMMDD
    expect(field(header, 30, 33)).toBe('1705'); // creation time HHMM (UTC)
    expect(field(header, 34, 34)).toBe('A'); // file ID modifier
    expect(field(header, 35, 37)).toBe('094'); // record size
    expect(field(header, 38, 39)).toBe('10'); // blocking factor
    expect(field(header, 40, 40)).toBe('1'); // format code
    expect(field(header, 41, 63)).toBe('Federal Reserve Bank   ');
    expect(field(header, 64, 86)).toBe('Summit Bank            ');
    expect(field(header, 87, 94)).toBe('        '); // reference code
  });

  it('one batch header (5) per effective date, in date order', () => {
    const [first, second] = [records[1]!, records[5]!];
    expect(field(first, 1, 1)).toBe('5');
    expect(field(first, 2, 4)).toBe('220'); // credits only
    expect(field(first, 5, 20)).toBe('Summit Bank     '); // company name
    expect(field(first, 21, 40)).toBe(' '.repeat(20)); // discretionary data
    expect(field(first, 41, 50)).toBe('1102000021'); // company identification
    expect(field(first, 51, 53)).toBe('PPD');
    expect(field(first, 54, 63)).toBe('TRANSFER  ');
    expect(field(first, 64, 69)).toBe('      '); // descriptive date
    expect(field(first, 70, 75)).toBe('261127'); // effective entry date
    expect(field(first, 76, 78)).toBe('   '); // settlement date: the operator's
    expect(field(first, 79, 79)).toBe('1'); // originator status code
    expect(field(first, 80, 87)).toBe('10200002'); // ODFI identification
    expect(field(first, 88, 94)).toBe('0000001'); // batch number
    expect(field(second, 70, 75)).toBe('261130');
    expect(field(second, 88, 94)).toBe('0000002');
  });

  it('entry details (6): code, RDFI and check digit, account, amount, id, name, addenda indicator, trace', () => {
    const entry = records[2]!;
    expect(field(entry, 1, 1)).toBe('6');
    expect(field(entry, 2, 3)).toBe('22');
    expect(field(entry, 4, 11)).toBe('02100002'); // RDFI identification
    expect(field(entry, 12, 12)).toBe('1'); // check digit
    expect(field(entry, 13, 29)).toBe('4000123456       ');
    expect(field(entry, 30, 39)).toBe('0000012345'); // $123.45
    expect(field(entry, 40, 54)).toBe('T9F2C1A7       ');
    expect(field(entry, 55, 76)).toBe('Grace Hopper          ');
    expect(field(entry, 77, 78)).toBe('  ');
    expect(field(entry, 79, 79)).toBe('0');
    expect(field(entry, 80, 94)).toBe('102000020000041'); // ODFI 8 digits + sequence
    const second = records[3]!;
    expect(field(second, 13, 29)).toBe('99887766554433221'); // 17 characters: the whole field
    expect(field(second, 55, 76)).toBe('Alan Mathison Turing t'); // cut to 22
    expect(field(second, 80, 94)).toBe('102000020000042');
    expect(file.traceNumbers).toEqual(['102000020000041', '102000020000042', '102000020000043']);
  });

  it('a return (21) with its addenda 99: reason, original trace, original RDFI, the entry’s trace', () => {
    const [entry, addenda] = [records[6]!, records[7]!];
    expect(field(entry, 2, 3)).toBe('21');
    expect(field(entry, 79, 79)).toBe('1');
    expect(field(addenda, 1, 1)).toBe('7');
    expect(field(addenda, 2, 3)).toBe('99');
    expect(field(addenda, 4, 6)).toBe('R03');
    expect(field(addenda, 7, 21)).toBe('011000010000077');
    expect(field(addenda, 22, 27)).toBe('      '); // date of death
    expect(field(addenda, 28, 35)).toBe('10200002');
    expect(field(addenda, 36, 79)).toBe(' '.repeat(44));
    expect(field(addenda, 80, 94)).toBe('102000020000043');
  });

  it('batch controls (8): count, entry hash, totals, company id, ODFI, batch number', () => {
    const first = records[4]!;
    expect(field(first, 1, 1)).toBe('8');
    expect(field(first, 2, 4)).toBe('220');
    expect(field(first, 5, 10)).toBe('000002');
    // 02100002 + 12100035 = 14200037
    expect(field(first, 11, 20)).toBe('0014200037');
    expect(field(first, 21, 32)).toBe('000000000000');
    expect(field(first, 33, 44)).toBe('000000012445'); // 123.45 + 1.00
    expect(field(first, 45, 54)).toBe('1102000021');
    expect(field(first, 55, 73)).toBe(' '.repeat(19)); // message authentication code
    expect(field(first, 74, 79)).toBe(' '.repeat(6)); // reserved
    expect(field(first, 80, 87)).toBe('10200002');
    expect(field(first, 88, 94)).toBe('0000001');
    const second = records[8]!;
    expect(field(second, 2, 4)).toBe('220'); // a return of a credit counts as a credit
    expect(field(second, 5, 10)).toBe('000002'); // entry + addenda
    expect(field(second, 11, 20)).toBe('0001100001');
    expect(field(second, 33, 44)).toBe('000000250000');
  });

  it('file control (9): batches, blocks, entries and addenda, entry hash, totals', () => {
    const control = records[9]!;
    expect(field(control, 1, 1)).toBe('9');
    expect(field(control, 2, 7)).toBe('000002');
    expect(field(control, 8, 13)).toBe('000001');
    expect(field(control, 14, 21)).toBe('00000004'); // 3 entries + 1 addenda
    expect(field(control, 22, 31)).toBe('0015300038'); // 14200037 + 1100001
    expect(field(control, 32, 43)).toBe('000000000000');
    expect(field(control, 44, 55)).toBe('000000262445');
    expect(field(control, 56, 94)).toBe(' '.repeat(39));
  });

  it('reads back as written', () => {
    const parsed = parseNachaFile(file.text);
    expect(parsed.header).toMatchObject({ immediateDestination: '011000015', immediateOrigin: '102000021', creationDate: '2026-11-25', creationTime: '1705', fileIdModifier: 'A' });
    expect(parsed.batches.map((batch) => batch.header.effectiveEntryDate)).toEqual(['2026-11-27', '2026-11-30']);
    expect(parsed.batches[0]!.entries[1]).toEqual({
      transactionCode: 32,
      rdfiRoutingNumber: '121000358',
      accountNumber: '99887766554433221',
      amountCents: 100,
      individualIdentification: 'T0000002',
      individualName: 'Alan Mathison Turing t',
      discretionaryData: '',
      traceNumber: '102000020000042',
    });
    expect(parsed.batches[1]!.entries[0]!.addenda).toEqual({
      type: '99',
      returnReasonCode: 'R03',
      originalTraceNumber: '011000010000077',
      dateOfDeath: '',
      originalReceivingDfi: '10200002',
      addendaInformation: '',
    });
    expect(parsed.control).toEqual({ batchCount: 2, blockCount: 1, entryAddendaCount: 4, entryHash: 15_300_038n, totalDebitCents: 0n, totalCreditCents: 262_445n });
  });

  it('refuses a trace sequence outside 1–9,999,999 and a bank routing number that fails its check digit', () => {
    expect(traceNumberOf('102000021', 9_999_999)).toBe('102000029999999');
    expect(() => traceNumberOf('102000021', 10_000_000)).toThrow(RangeError);
    expect(() => buildOutboundFile(entries, { ...options, bankRoutingNumber: '102000022' })).toThrow(RangeError);
    expect(() => buildOutboundFile([{ ...entries[0]!, rdfiRoutingNumber: '021000022' }], options)).toThrow(/RDFI routing number/);
    expect(() => buildOutboundFile([{ ...entries[0]!, accountNumber: '123456789012345678' }], options)).toThrow(/17 characters/);
  });
});

describe('return reason codes', () => {
  it('names the codes R01–R85 with NACHA’s words', () => {
    expect(describeReturnReason('R01')).toBe('R01 Insufficient funds');
    expect(returnReasons.R02).toBe('Account closed');
    expect(returnReasons.R03).toBe('No account/unable to locate account');
    expect(returnReasons.R04).toBe('Invalid account number structure');
    expect(returnReasons.R16).toBe('Account frozen/entry returned per OFAC instruction');
    expect(returnReasons.R85).toBe('Incorrectly coded outbound international payment');
    expect(isReturnReasonCode('R48')).toBe(false); // not assigned
    expect(isReturnReasonCode('R86')).toBe(false);
    expect(Object.keys(returnReasons).every((code) => /^R(0[1-9]|[1-7]\d|8[0-5])$/.test(code))).toBe(true);
  });
});

describe('a returns file as the ODFI sends it (typed record by record, not written by this module)', () => {
  const records = [
    '1' + '01' + ' 102000021' + ' 011000015' + '261130' + '0615' + 'A' + '094' + '10' + '1' + 'Summit Bank'.padEnd(23) + 'Federal Reserve Bank'.padEnd(23) + ' '.repeat(8),
    '5' + '220' + 'Summit Bank'.padEnd(16) + ' '.repeat(20) + '1102000021' + 'PPD' + 'TRANSFER  ' + ' '.repeat(6) + '261127' + '331' + '1' + '01100001' + '0000001',
    '6' + '21' + '10200002' + '1' + '4000123456'.padEnd(17) + '0000012345' + 'T9F2C1A7'.padEnd(15) + 'Grace Hopper'.padEnd(22) + '  ' + '1' + '011000010000001',
    '7' + '99' + 'R01' + '102000020000041' + ' '.repeat(6) + '02100002' + 'Insufficient funds'.padEnd(44) + '011000010000001',
    '6' + '31' + '10200002' + '1' + '99887766554433221' + '0000000100' + 'T0000002'.padEnd(15) + 'Alan Mathison Turing t' + '  ' + '1' + '011000010000002',
    '7' + '99' + 'R03' + '102000020000042' + ' '.repeat(6) + '12100035' + ' '.repeat(44) + '011000010000002',
    '8' + '220' + '000004' + '0020400004' + '000000000000' + '000000012445' + '1102000021' + ' '.repeat(19) + ' '.repeat(6) + '01100001' + '0000001',
    '9' + '000001' + '000001' + '00000004' + '0020400004' + '000000000000' + '000000012445' + ' '.repeat(39),
    '9'.repeat(94),
    '9'.repeat(94),
  ];

  it('is read: the returns, their reason codes and the original trace numbers', () => {
    expect(records.every((record) => record.length === 94)).toBe(true);
    const file = parseNachaFile(`${records.join('\r\n')}\r\n`);
    expect(file.header.immediateDestination).toBe('102000021');
    expect(file.batches[0]!.header.settlementDate).toBe('331');
    expect(
      file.batches[0]!.entries.map((entry) => [entry.transactionCode, entry.amountCents, entry.traceNumber, entry.addenda?.type === '99' ? [entry.addenda.returnReasonCode, entry.addenda.originalTraceNumber] : null]),
    ).toEqual([
      [21, 12_345, '011000010000001', ['R01', '102000020000041']],
      [31, 100, '011000010000002', ['R03', '102000020000042']],
    ]);
    // 10200002 + 10200002 = 20400004
    expect(file.control.entryHash).toBe(20_400_004n);
  });
});

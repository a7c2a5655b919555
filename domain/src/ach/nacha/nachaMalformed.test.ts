import { describe, expect, it } from 'vitest';
import { NachaFormatError } from './nachaTypes';
import { buildOutboundFile, type OutboundEntry } from './outboundFile';
import { parseNachaFile } from './parseNacha';

/** A valid file to break: 1 header, 5 6 6 8, 5 6 7 8, 9 (lines 1–10), then a second block once padded. */
const entries: OutboundEntry[] = [
  { transactionCode: 22, rdfiRoutingNumber: '021000021', accountNumber: '4000123456', amountCents: 12_345, name: 'Grace Hopper', individualIdentification: 'T1', effectiveDate: '2026-11-27' },
  { transactionCode: 37, rdfiRoutingNumber: '121000358', accountNumber: '778899', amountCents: 500, name: 'Ada Lovelace', individualIdentification: 'T2', effectiveDate: '2026-11-27' },
  {
    transactionCode: 31,
    rdfiRoutingNumber: '011000015',
    accountNumber: '55-1234',
    amountCents: 2_000,
    name: 'Payroll Inc',
    individualIdentification: 'R3',
    effectiveDate: '2026-11-30',
    returnOf: { reasonCode: 'R02', originalTraceNumber: '011000010000077', originalReceivingDfi: '10200002' },
  },
];
const valid = buildOutboundFile(entries, {
  bankRoutingNumber: '102000021',
  bankName: 'Summit Bank',
  destinationRoutingNumber: '011000015',
  destinationName: 'Federal Reserve Bank',
  companyIdentification: '1102000021',
  entryDescription: 'TRANSFER',
  createdAt: '2026-11-25T17:05:00Z',
  fileIdModifier: 'B',
  firstTraceSequence: 1,
}).text;
const lines = (): string[] => valid.slice(0, -1).split('\n');
const put = (record: string, from: number, value: string): string => record.slice(0, from - 1) + value + record.slice(from - 1 + value.length);

/** The error a broken file gets: its line and message. */
function refusal(text: string): { line: number; message: string } {
  try {
    parseNachaFile(text);
  } catch (error) {
    if (error instanceof NachaFormatError) return { line: error.line, message: error.message };
    throw error;
  }
  throw new Error('The file was accepted');
}

function edit(change: (records: string[]) => void): string {
  const records = lines();
  change(records);
  return `${records.join('\n')}\n`;
}

describe('a malformed file is refused, naming its first bad line', () => {
  it('the valid file parses, with \\n or \\r\\n line ends, with or without a final line end', () => {
    expect(lines().map((record) => record[0]).join('')).toBe('1566856789');
    expect(parseNachaFile(valid).batches).toHaveLength(2);
    expect(parseNachaFile(valid.replace(/\n/g, '\r\n')).batches).toHaveLength(2);
    expect(parseNachaFile(valid.slice(0, -1)).batches).toHaveLength(2);
  });

  it('an empty file, a short or long record, trailing spaces stripped', () => {
    expect(refusal('')).toEqual({ line: 1, message: 'Line 1: The file is empty' });
    expect(refusal(edit((r) => (r[2] = r[2]!.trimEnd().slice(0, 93))))).toEqual({ line: 3, message: 'Line 3: A record is 94 characters long; this one has 93' });
    expect(refusal(edit((r) => (r[6] = `${r[6]} `)))).toEqual({ line: 7, message: 'Line 7: A record is 94 characters long; this one has 95' });
    expect(refusal(edit((r) => (r[0] = r[0]!.trimEnd())))).toMatchObject({ line: 1 });
    expect(refusal(edit((r) => r.splice(4, 0, '')))).toEqual({ line: 5, message: 'Line 5: A record is 94 characters long; this one has 0' });
  });

  it('a character outside printable ASCII, in a name or an account number (it could not be filed again in a return)', () => {
    expect(refusal(edit((r) => (r[2] = put(r[2]!, 13, 'é'))))).toEqual({ line: 3, message: 'Line 3: A record holds printable ASCII only; position 13 holds U+00E9' });
    expect(refusal(edit((r) => (r[4] = put(r[4]!, 55, '\t'))))).toEqual({ line: 5, message: 'Line 5: A record holds printable ASCII only; position 55 holds U+0009' });
  });

  it('two faults: the first line is named, whichever kind of fault comes later', () => {
    const badAmountThenShort = (records: string[]) => {
      records[2] = put(records[2]!, 30, '00000123A5');
      records[6] = `${records[6]} `;
    };
    expect(refusal(edit(badAmountThenShort))).toEqual({ line: 3, message: 'Line 3: Amount (positions 30–39) must be digits, not "00000123A5"' });
    // A control that disagrees (line 5) before a long line (7).
    expect(refusal(edit((r) => ((r[2] = put(r[2]!, 30, '0000012346')), (r[6] = `${r[6]} `))))).toMatchObject({ line: 5 });
    // A short line before a bad field.
    expect(refusal(edit((r) => ((r[1] = r[1]!.slice(0, 90)), (r[2] = put(r[2]!, 30, '00000123A5')))))).toMatchObject({ line: 2, message: 'Line 2: A record is 94 characters long; this one has 90' });
    // A short padding record after the file control.
    expect(refusal(edit((r) => r.push(...Array.from({ length: 9 }, () => '9'.repeat(94)), '9'.repeat(93))))).toMatchObject({ line: 20, message: 'Line 20: A record is 94 characters long; this one has 93' });
  });

  it('records out of order', () => {
    expect(refusal(edit((r) => r.shift()))).toMatchObject({ line: 1, message: 'Line 1: The file must start with a file header (1), not record type "5"' });
    expect(refusal(edit((r) => r.splice(1, 1)))).toMatchObject({ line: 2, message: 'Line 2: Expected a batch header (5) or the file control (9), found entry detail (6)' });
    expect(refusal(edit((r) => r.splice(4, 1)))).toMatchObject({ line: 5, message: 'Line 5: Expected an entry detail (6) or the batch control (8), found batch header (5)' });
    expect(refusal(edit((r) => r.splice(9, 1)))).toMatchObject({ line: 10, message: 'Line 10: The file ends where a file control (9) was expected' });
    expect(refusal(edit((r) => r.push('9'.repeat(94))))).toMatchObject({ line: 10 }); // 11 records: not blocked by ten
    expect(refusal(edit((r) => r.push(...Array.from({ length: 9 }, () => '9'.repeat(94)), r[0]!)))).toMatchObject({ line: 20, message: 'Line 20: Only all-9 padding records may follow the file control' });
  });

  it('addenda: announced and missing, present and not announced, wrong trace, unknown reason, unsupported type', () => {
    expect(refusal(edit((r) => r.splice(7, 1)))).toMatchObject({ line: 8, message: 'Line 8: The entry on line 7 announces an addenda (7); found batch control (8)' });
    expect(refusal(edit((r) => (r[6] = put(r[6]!, 79, '0'))))).toMatchObject({ line: 8, message: 'Line 8: An addenda (7) after an entry that announces none (line 7, position 79)' });
    expect(refusal(edit((r) => (r[7] = put(r[7]!, 80, '102000020000009'))))).toMatchObject({ line: 8, message: "Line 8: The addenda's trace number 102000020000009 is not its entry's (102000020000003)" });
    expect(refusal(edit((r) => (r[7] = put(r[7]!, 4, 'R48'))))).toMatchObject({ line: 8, message: 'Line 8: Return reason code (positions 4–6) must be one of R01–R85, not "R48"' });
    expect(refusal(edit((r) => (r[7] = put(r[7]!, 2, '98'))))).toMatchObject({ line: 8, message: 'Line 8: Addenda type code "98" is not supported (05 payment information, 99 return)' });
  });

  it('bad fields: digits, dates, transaction codes, routing check digits, service classes, trace order', () => {
    expect(refusal(edit((r) => (r[2] = put(r[2]!, 30, '00000123A5'))))).toMatchObject({ line: 3, message: 'Line 3: Amount (positions 30–39) must be digits, not "00000123A5"' });
    expect(refusal(edit((r) => (r[1] = put(r[1]!, 70, '261131'))))).toMatchObject({ line: 2, message: 'Line 2: Effective entry date (positions 70–75) must be a date YYMMDD, not "261131"' });
    expect(refusal(edit((r) => (r[2] = put(r[2]!, 2, '24'))))).toMatchObject({ line: 3, message: 'Line 3: Transaction code 24 is not one this bank handles (21–23, 26–28, 31–33, 36–38)' });
    expect(refusal(edit((r) => (r[3] = put(r[3]!, 12, '9'))))).toMatchObject({ line: 4, message: 'Line 4: RDFI routing number 121000359 (positions 4–12) fails the check digit' });
    expect(refusal(edit((r) => (r[3] = put(r[3]!, 13, ' '.repeat(17)))))).toMatchObject({ line: 4, message: 'Line 4: DFI account number (positions 13–29) is blank' });
    expect(refusal(edit((r) => (r[5] = put(r[5]!, 2, '225'))))).toMatchObject({ line: 7, message: 'Line 7: A credit (transaction code 31) in a debits-only batch (service class 225)' });
    expect(refusal(edit((r) => (r[1] = put(r[1]!, 2, '201'))))).toMatchObject({ line: 2, message: 'Line 2: Service class code must be 200, 220 or 225, not 201' });
    expect(refusal(edit((r) => (r[3] = put(r[3]!, 80, '102000020000001'))))).toMatchObject({ line: 4, message: 'Line 4: Trace numbers ascend within a batch: 102000020000001 follows 102000020000001' });
    expect(refusal(edit((r) => (r[0] = put(r[0]!, 38, '20'))))).toMatchObject({ line: 1, message: 'Line 1: Blocking factor (positions 38–39) must be 10, not "20"' });
    expect(refusal(edit((r) => (r[0] = put(r[0]!, 4, '0011000015'))))).toMatchObject({ line: 1 });
  });

  it('a control total that disagrees names the control record’s line', () => {
    // The entry's amount changes: its batch's control (line 5) disagrees.
    expect(refusal(edit((r) => (r[2] = put(r[2]!, 30, '0000012346'))))).toEqual({ line: 5, message: "Line 5: Batch total credit 12345 disagrees with the file's 12346" });
    expect(refusal(edit((r) => (r[4] = put(r[4]!, 5, '000003'))))).toMatchObject({ line: 5, message: "Line 5: Batch entry/addenda count 3 disagrees with the file's 2" });
    expect(refusal(edit((r) => (r[4] = put(r[4]!, 11, '0014200038'))))).toMatchObject({ line: 5, message: "Line 5: Batch entry hash 14200038 disagrees with the file's 14200037" });
    expect(refusal(edit((r) => (r[8] = put(r[8]!, 88, '0000003'))))).toMatchObject({ line: 9, message: "Line 9: Batch number 3 disagrees with the file's 2" });
    expect(refusal(edit((r) => (r[9] = put(r[9]!, 2, '000003'))))).toMatchObject({ line: 10, message: "Line 10: File batch count 3 disagrees with the file's 2" });
    expect(refusal(edit((r) => (r[9] = put(r[9]!, 22, '0015300039'))))).toMatchObject({ line: 10, message: "Line 10: File entry hash 15300039 disagrees with the file's 15300038" });
    expect(refusal(edit((r) => (r[9] = put(r[9]!, 32, '000000000501'))))).toMatchObject({ line: 10, message: "Line 10: File total debit 501 disagrees with the file's 500" });
    expect(refusal(edit((r) => (r[9] = put(r[9]!, 8, '000002'))))).toMatchObject({ line: 10, message: "Line 10: File block count 2 disagrees with the file's 1" });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routingCheckDigit } from '../routingNumber';
import { fittedText } from './nachaFields';
import { isCreditCode, NachaFormatError, transactionCodes, type EntryDetail, type NachaFileInput, type TransactionCode } from './nachaTypes';
import { parseNachaFile } from './parseNacha';
import { returnReasons, type ReturnReasonCode } from './returnReasons';
import { writeNachaFile } from './writeNacha';

const digits = (length: number) => fc.stringMatching(new RegExp(`^\\d{${length}}$`));
const routing = digits(8).map((eight) => eight + String(routingCheckDigit(eight)));
const date = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((at) => at.toISOString().slice(0, 10));
const code = fc.constantFrom(...(Object.keys(transactionCodes).map(Number) as TransactionCode[]));
const reason = fc.constantFrom(...(Object.keys(returnReasons) as ReturnReasonCode[]));
/** Any text a person might type, accents and all: the writer keeps what NACHA can hold. */
const unit = fc.constantFrom(...'abcXYZ019 -&.,/éñü\u00a0\t');
const text = fc.oneof(fc.string({ maxLength: 12, unit }), fc.string({ minLength: 18, maxLength: 90, unit, size: 'max' }));
const id = (max: number) => fc.stringMatching(new RegExp(`^[A-Z0-9][A-Z0-9 -]{0,${max - 2}}[A-Z0-9]$|^[A-Z0-9]$`));

const entryFields = fc.record({
  transactionCode: code,
  rdfiRoutingNumber: routing,
  accountNumber: id(17),
  amountCents: fc.integer({ min: 0, max: 9_999_999_999 }),
  individualIdentification: fc.oneof(fc.constant(''), id(15)),
  individualName: text,
  discretionaryData: fc.constantFrom('', 'S', 'AB'),
  addenda: fc.option(
    fc.oneof(
      fc.record({ type: fc.constant('99' as const), returnReasonCode: reason, originalTraceNumber: digits(15), dateOfDeath: fc.oneof(fc.constant(''), date), originalReceivingDfi: digits(8), addendaInformation: text }),
      fc.record({ type: fc.constant('05' as const), paymentRelatedInformation: text, sequenceNumber: fc.integer({ min: 1, max: 9999 }) }),
    ),
    { nil: undefined },
  ),
});

/** A file of 0–4 batches of 0–12 entries, trace numbers ascending within each batch. */
const fileInput: fc.Arbitrary<NachaFileInput> = fc
  .record({
    odfi: digits(8),
    destination: routing,
    origin: routing,
    creationDate: date,
    creationTime: fc.oneof(fc.constant(''), digits(4)),
    fileIdModifier: fc.constantFrom(...'AZ09'),
    names: fc.tuple(text, text, text),
    batches: fc.array(
      fc.record({ effectiveEntryDate: date, companyName: text, companyId: id(10), description: text, entries: fc.array(entryFields, { maxLength: 12 }), firstSequence: fc.integer({ min: 1, max: 9_000_000 }) }),
      { maxLength: 4 },
    ),
  })
  .map((f) => ({
    header: {
      immediateDestination: f.destination,
      immediateOrigin: f.origin,
      creationDate: f.creationDate,
      creationTime: f.creationTime,
      fileIdModifier: f.fileIdModifier,
      immediateDestinationName: f.names[0],
      immediateOriginName: f.names[1],
      referenceCode: f.names[2],
    },
    batches: f.batches.map((batch) => ({
      header: {
        companyName: batch.companyName,
        companyDiscretionaryData: '',
        companyIdentification: batch.companyId,
        secCode: 'PPD',
        companyEntryDescription: batch.description,
        companyDescriptiveDate: '',
        effectiveEntryDate: batch.effectiveEntryDate,
        settlementDate: '',
        originatorStatusCode: '1',
        odfiIdentification: f.odfi,
      },
      entries: batch.entries.map((entry, index): EntryDetail => {
        const { addenda, ...rest } = entry;
        return { ...rest, traceNumber: `${f.odfi}${String(batch.firstSequence + index).padStart(7, '0')}`, ...(addenda ? { addenda } : {}) };
      }),
    })),
  }));

/** An entry as the file holds it: text fields cut and cleaned as NACHA's layout keeps them. */
function asWritten(entry: EntryDetail): EntryDetail {
  const addenda = entry.addenda;
  return {
    ...entry,
    individualName: fittedText(entry.individualName, 22),
    ...(addenda?.type === '99' ? { addenda: { ...addenda, addendaInformation: fittedText(addenda.addendaInformation, 44) } } : {}),
    ...(addenda?.type === '05' ? { addenda: { ...addenda, paymentRelatedInformation: fittedText(addenda.paymentRelatedInformation, 80) } } : {}),
  };
}

describe('NACHA files (properties)', () => {
  it('any set of entries round-trips through write and parse', () => {
    fc.assert(
      fc.property(fileInput, (input) => {
        const parsed = parseNachaFile(writeNachaFile(input));
        expect(parsed.header).toEqual({
          ...input.header,
          immediateDestinationName: fittedText(input.header.immediateDestinationName, 23),
          immediateOriginName: fittedText(input.header.immediateOriginName, 23),
          referenceCode: fittedText(input.header.referenceCode, 8),
        });
        expect(parsed.batches.map((batch) => batch.entries)).toEqual(input.batches.map((batch) => batch.entries.map(asWritten)));
        expect(parsed.batches.map((batch) => [batch.header.effectiveEntryDate, batch.header.companyIdentification, batch.header.batchNumber])).toEqual(
          input.batches.map((batch, index) => [batch.header.effectiveEntryDate, batch.header.companyIdentification, index + 1]),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("a file's controls always agree with its entries, and its records are 94 characters blocked by ten", () => {
    fc.assert(
      fc.property(fileInput, (input) => {
        const text = writeNachaFile(input);
        const records = text.slice(0, -1).split('\n');
        expect(records.every((record) => record.length === 94)).toBe(true);
        expect(records.length % 10).toBe(0);
        const { control, batches } = parseNachaFile(text);
        const entries = input.batches.flatMap((batch) => batch.entries);
        const sum = (side: boolean) => entries.filter((entry) => isCreditCode(entry.transactionCode) === side).reduce((total, entry) => total + BigInt(entry.amountCents), 0n);
        expect(control.totalCreditCents).toBe(sum(true));
        expect(control.totalDebitCents).toBe(sum(false));
        expect(control.entryAddendaCount).toBe(entries.length + entries.filter((entry) => entry.addenda).length);
        expect(control.entryHash).toBe(entries.reduce((total, entry) => total + BigInt(entry.rdfiRoutingNumber.slice(0, 8)), 0n) % 10_000_000_000n);
        expect(control.blockCount).toBe(records.length / 10);
        expect(control.batchCount).toBe(input.batches.length);
        for (const batch of batches) {
          const codes = batch.entries.map((entry) => isCreditCode(entry.transactionCode));
          const expected = codes.length === 0 || (codes.includes(true) && codes.includes(false)) ? 200 : codes[0] ? 220 : 225;
          expect(batch.header.serviceClassCode).toBe(expected);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("changing one entry's amount is refused, naming its batch control's line", () => {
    const withEntries = fileInput.filter((input) => input.batches.some((batch) => batch.entries.length > 0));
    fc.assert(
      fc.property(withEntries, fc.nat(), fc.integer({ min: 1, max: 999 }), (input, pick, delta) => {
        const records = writeNachaFile(input).split('\n');
        const entryLines = records.flatMap((record, index) => (record.startsWith('6') ? [index] : []));
        const target = entryLines[pick % entryLines.length]!;
        const amount = Number(records[target]!.slice(29, 39));
        const changed = String((amount + delta) % 10_000_000_000).padStart(10, '0');
        records[target] = records[target]!.slice(0, 29) + changed + records[target]!.slice(39);
        const controlLine = records.findIndex((record, index) => index > target && record.startsWith('8')) + 1;
        let error: unknown;
        try {
          parseNachaFile(records.join('\n'));
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(NachaFormatError);
        expect((error as NachaFormatError).line).toBe(controlLine);
        expect((error as NachaFormatError).message).toMatch(new RegExp(`^Line ${controlLine}: Batch total (debit|credit) `));
      }),
      { numRuns: 100 },
    );
  });
});

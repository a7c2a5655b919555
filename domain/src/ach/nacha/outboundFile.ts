import { isValidRoutingNumber } from '../routingNumber';
import type { ReturnReasonCode } from './returnReasons';
import type { EntryDetail, NachaFileInput, TransactionCode } from './nachaTypes';
import { writeNachaFile } from './writeNacha';

/** One entry the bank sends: an external transfer (22/32 credit, 27/37 debit) or a return it owes (21/31). */
export interface OutboundEntry {
  readonly transactionCode: TransactionCode;
  readonly rdfiRoutingNumber: string;
  readonly accountNumber: string;
  readonly amountCents: number;
  /** The receiver's name (cut to 22 characters). */
  readonly name: string;
  /** Up to 15 characters the receiver's bank shows (e.g. the start of the transfer id). */
  readonly individualIdentification: string;
  /** The banking day it takes effect: one batch per effective date. */
  readonly effectiveDate: string;
  /** For a return (21/31): the entry it returns and why. */
  readonly returnOf?: {
    readonly reasonCode: ReturnReasonCode;
    readonly originalTraceNumber: string;
    /** The original entry's RDFI (this bank): 8 digits. */
    readonly originalReceivingDfi: string;
  };
}

export interface OutboundFileOptions {
  /** The bank's routing number (BANK_ROUTING_NUMBER): immediate origin, ODFI identification, trace prefix. */
  readonly bankRoutingNumber: string;
  readonly bankName: string;
  /** Where the file goes (the ACH operator's routing number) and its name. */
  readonly destinationRoutingNumber: string;
  readonly destinationName: string;
  /** The originator's company identification (10 characters). */
  readonly companyIdentification: string;
  /** The batch's entry description the receivers' statements show (10 characters). */
  readonly entryDescription: string;
  /** The file's creation instant (ISO): date and HHMM in UTC. */
  readonly createdAt: string;
  /** A–Z or 0–9. */
  readonly fileIdModifier: string;
  /** The first entry's 7-digit trace sequence; each next entry takes the next number. */
  readonly firstTraceSequence: number;
}

export interface OutboundFile {
  readonly text: string;
  /** The trace number given to each entry, in the order of the entries given. */
  readonly traceNumbers: readonly string[];
  readonly input: NachaFileInput;
}

export const MAX_TRACE_SEQUENCE = 9_999_999;

/** The trace number of the `sequence`-th entry of an ODFI: its 8-digit identification + 7 digits. */
export function traceNumberOf(bankRoutingNumber: string, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1 || sequence > MAX_TRACE_SEQUENCE) throw new RangeError(`Trace sequence must be 1–${MAX_TRACE_SEQUENCE}: ${sequence}`);
  return `${bankRoutingNumber.slice(0, 8)}${String(sequence).padStart(7, '0')}`;
}

/**
 * The bank's outbound file: one PPD batch per effective date (in date order, the entries in the order given),
 * trace numbers from `firstTraceSequence` in that batch order, no offset entry.
 */
export function buildOutboundFile(entries: readonly OutboundEntry[], options: OutboundFileOptions): OutboundFile {
  if (!isValidRoutingNumber(options.bankRoutingNumber)) throw new RangeError(`The bank's routing number is not valid: ${options.bankRoutingNumber}`);
  const created = new Date(options.createdAt);
  if (Number.isNaN(created.getTime())) throw new RangeError(`createdAt is not an instant: ${options.createdAt}`);
  const odfi = options.bankRoutingNumber.slice(0, 8);
  const dates = [...new Set(entries.map((entry) => entry.effectiveDate))].sort();
  const traceNumbers: string[] = new Array<string>(entries.length);
  let sequence = options.firstTraceSequence;
  const batches = dates.map((effectiveEntryDate) => {
    const details: EntryDetail[] = [];
    entries.forEach((entry, index) => {
      if (entry.effectiveDate !== effectiveEntryDate) return;
      const traceNumber = traceNumberOf(options.bankRoutingNumber, sequence);
      sequence += 1;
      traceNumbers[index] = traceNumber;
      details.push({
        transactionCode: entry.transactionCode,
        rdfiRoutingNumber: entry.rdfiRoutingNumber,
        accountNumber: entry.accountNumber,
        amountCents: entry.amountCents,
        individualIdentification: entry.individualIdentification,
        individualName: entry.name,
        discretionaryData: '',
        traceNumber,
        ...(entry.returnOf
          ? {
              addenda: {
                type: '99' as const,
                returnReasonCode: entry.returnOf.reasonCode,
                originalTraceNumber: entry.returnOf.originalTraceNumber,
                dateOfDeath: '',
                originalReceivingDfi: entry.returnOf.originalReceivingDfi,
                addendaInformation: '',
              },
            }
          : {}),
      });
    });
    return {
      header: {
        companyName: options.bankName,
        companyDiscretionaryData: '',
        companyIdentification: options.companyIdentification,
        secCode: 'PPD',
        companyEntryDescription: options.entryDescription,
        companyDescriptiveDate: '',
        effectiveEntryDate,
        settlementDate: '',
        originatorStatusCode: '1',
        odfiIdentification: odfi,
      },
      entries: details,
    };
  });
  const iso = created.toISOString();
  const input: NachaFileInput = {
    header: {
      immediateDestination: options.destinationRoutingNumber,
      immediateOrigin: options.bankRoutingNumber,
      creationDate: iso.slice(0, 10),
      creationTime: `${iso.slice(11, 13)}${iso.slice(14, 16)}`,
      fileIdModifier: options.fileIdModifier,
      immediateDestinationName: options.destinationName,
      immediateOriginName: options.bankName,
      referenceCode: '',
    },
    batches,
  };
  return { text: writeNachaFile(input), traceNumbers, input };
}

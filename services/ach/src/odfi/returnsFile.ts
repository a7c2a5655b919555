import { isValidRoutingNumber, parseNachaFile, routingCheckDigit, writeNachaFile, type EntryDetail, type ReturnReasonCode } from '@bank/domain';

/**
 * What the bank's ODFI sends back for entries of an outbound file the receiving banks refuse: a returns file. Each
 * return is an entry to the bank (21 for a checking credit returned, 31 for savings) of the original amount, with
 * an addenda 99 naming the reason, the original trace number and the original RDFI. One batch per returning bank.
 * Used by `npm run ach:simulate-odfi` and the tests.
 */
export interface ReturnsFileOptions {
  /** The outbound file the returns answer. */
  readonly outbound: string;
  /** Which of its entries come back: by account number. */
  readonly accountNumbers: readonly string[];
  readonly reasonCode: ReturnReasonCode;
  /** The returns file's creation instant. */
  readonly createdAt: string;
}

export function writeReturnsFile(options: ReturnsFileOptions): { text: string; returned: { traceNumber: string; accountNumber: string; amountCents: number }[] } {
  const outbound = parseNachaFile(options.outbound);
  const bankRouting = outbound.header.immediateOrigin;
  if (!isValidRoutingNumber(bankRouting)) throw new RangeError(`The outbound file's origin is not a routing number: ${bankRouting}`);
  const wanted = new Set(options.accountNumbers.map((number) => number.trim()));
  const byRdfi = new Map<string, EntryDetail[]>();
  const returned: { traceNumber: string; accountNumber: string; amountCents: number }[] = [];
  let sequence = 1;
  for (const batch of outbound.batches) {
    for (const entry of batch.entries) {
      if (entry.addenda?.type === '99' || !wanted.has(entry.accountNumber.trim())) continue;
      if (entry.transactionCode !== 22 && entry.transactionCode !== 32) continue;
      const rdfi = entry.rdfiRoutingNumber.slice(0, 8);
      const list = byRdfi.get(rdfi) ?? [];
      list.push({
        transactionCode: entry.transactionCode === 22 ? 21 : 31,
        rdfiRoutingNumber: bankRouting,
        accountNumber: entry.accountNumber,
        amountCents: entry.amountCents,
        individualIdentification: entry.individualIdentification,
        individualName: entry.individualName,
        discretionaryData: '',
        traceNumber: `${rdfi}${String(sequence).padStart(7, '0')}`,
        addenda: { type: '99', returnReasonCode: options.reasonCode, originalTraceNumber: entry.traceNumber, dateOfDeath: '', originalReceivingDfi: rdfi, addendaInformation: '' },
      });
      sequence += 1;
      byRdfi.set(rdfi, list);
      returned.push({ traceNumber: entry.traceNumber, accountNumber: entry.accountNumber.trim(), amountCents: entry.amountCents });
    }
  }
  const created = new Date(options.createdAt).toISOString();
  const text = writeNachaFile({
    header: {
      immediateDestination: bankRouting,
      immediateOrigin: `${outbound.header.immediateDestination.slice(0, 8)}${routingCheckDigit(outbound.header.immediateDestination.slice(0, 8))}`,
      creationDate: created.slice(0, 10),
      creationTime: `${created.slice(11, 13)}${created.slice(14, 16)}`,
      fileIdModifier: 'A',
      immediateDestinationName: outbound.header.immediateOriginName,
      immediateOriginName: outbound.header.immediateDestinationName,
      referenceCode: '',
    },
    batches: [...byRdfi].map(([rdfi, entries]) => ({
      header: {
        companyName: 'RETURNS',
        companyDiscretionaryData: '',
        companyIdentification: `1${rdfi}0`,
        secCode: 'PPD',
        companyEntryDescription: 'RETURN',
        companyDescriptiveDate: '',
        effectiveEntryDate: created.slice(0, 10),
        settlementDate: '',
        originatorStatusCode: '1',
        odfiIdentification: rdfi,
      },
      entries,
    })),
  });
  return { text, returned };
}

import type { ReturnReasonCode } from './returnReasons';

/**
 * A NACHA (ACH) file as this bank reads and writes it: the file header (1), batches (5 … 8) of entries (6) with
 * their addenda (7), the file control (9), 94-character records blocked by ten with all-9 padding records.
 * Dates are YYYY-MM-DD (the file holds YYMMDD, read as 20YY); amounts are integer cents; control totals bigint.
 */

/**
 * Transaction codes of the entries the bank handles (PPD, checking 2x / savings 3x):
 * 22/32 credit, 27/37 debit, 23/28/33/38 prenotes, 21/26/31/36 returns (automated return or NOC of a credit / debit).
 */
export const transactionCodes = {
  21: { account: 'checking', side: 'credit', kind: 'return' },
  22: { account: 'checking', side: 'credit', kind: 'entry' },
  23: { account: 'checking', side: 'credit', kind: 'prenote' },
  26: { account: 'checking', side: 'debit', kind: 'return' },
  27: { account: 'checking', side: 'debit', kind: 'entry' },
  28: { account: 'checking', side: 'debit', kind: 'prenote' },
  31: { account: 'savings', side: 'credit', kind: 'return' },
  32: { account: 'savings', side: 'credit', kind: 'entry' },
  33: { account: 'savings', side: 'credit', kind: 'prenote' },
  36: { account: 'savings', side: 'debit', kind: 'return' },
  37: { account: 'savings', side: 'debit', kind: 'entry' },
  38: { account: 'savings', side: 'debit', kind: 'prenote' },
} as const;

export type TransactionCode = keyof typeof transactionCodes;

export function isTransactionCode(code: number): code is TransactionCode {
  return Object.hasOwn(transactionCodes, code);
}

/** Whether an entry of this code counts in the controls' total credit (else total debit). */
export function isCreditCode(code: TransactionCode): boolean {
  return transactionCodes[code].side === 'credit';
}

/** 200 mixed, 220 credits only, 225 debits only. */
export type ServiceClassCode = 200 | 220 | 225;

export interface FileHeader {
  /** The receiving point's routing number (9 digits; written as " " + 9 digits). */
  readonly immediateDestination: string;
  /** The sending point's routing number (9 digits). */
  readonly immediateOrigin: string;
  readonly creationDate: string;
  /** HHMM (UTC), '' when absent. */
  readonly creationTime: string;
  /** A–Z or 0–9: tells apart files of one day. */
  readonly fileIdModifier: string;
  readonly immediateDestinationName: string;
  readonly immediateOriginName: string;
  readonly referenceCode: string;
}

export interface BatchHeader {
  readonly serviceClassCode: ServiceClassCode;
  readonly companyName: string;
  readonly companyDiscretionaryData: string;
  /** 10 characters, usually "1" + the originator's EIN. */
  readonly companyIdentification: string;
  /** Standard Entry Class: PPD (consumer). */
  readonly secCode: string;
  readonly companyEntryDescription: string;
  readonly companyDescriptiveDate: string;
  readonly effectiveEntryDate: string;
  /** Julian settlement day, filled by the ACH operator ('' in the files the bank writes). */
  readonly settlementDate: string;
  readonly originatorStatusCode: string;
  /** The ODFI's routing number without its check digit (8 digits). */
  readonly odfiIdentification: string;
  readonly batchNumber: number;
}

/** Addenda type 99: a return, naming the entry it returns. */
export interface ReturnAddenda {
  readonly type: '99';
  readonly returnReasonCode: ReturnReasonCode;
  readonly originalTraceNumber: string;
  /** YYYY-MM-DD (R14/R15), '' otherwise. */
  readonly dateOfDeath: string;
  /** The original entry's RDFI (8 digits). */
  readonly originalReceivingDfi: string;
  readonly addendaInformation: string;
}

/** Addenda type 05: payment related information (PPD allows one). */
export interface PaymentAddenda {
  readonly type: '05';
  readonly paymentRelatedInformation: string;
  readonly sequenceNumber: number;
}

export type Addenda = ReturnAddenda | PaymentAddenda;

export interface EntryDetail {
  readonly transactionCode: TransactionCode;
  /** The RDFI's routing number, 9 digits (8 + check digit). */
  readonly rdfiRoutingNumber: string;
  /** At most 17 characters. */
  readonly accountNumber: string;
  readonly amountCents: number;
  readonly individualIdentification: string;
  readonly individualName: string;
  readonly discretionaryData: string;
  /** 15 digits: the ODFI's 8-digit identification + a 7-digit sequence. */
  readonly traceNumber: string;
  readonly addenda?: Addenda | undefined;
}

export interface BatchControl {
  readonly serviceClassCode: ServiceClassCode;
  readonly entryAddendaCount: number;
  readonly entryHash: bigint;
  readonly totalDebitCents: bigint;
  readonly totalCreditCents: bigint;
  readonly companyIdentification: string;
  readonly odfiIdentification: string;
  readonly batchNumber: number;
}

export interface Batch {
  readonly header: BatchHeader;
  readonly entries: readonly EntryDetail[];
  readonly control: BatchControl;
}

export interface FileControl {
  readonly batchCount: number;
  readonly blockCount: number;
  readonly entryAddendaCount: number;
  readonly entryHash: bigint;
  readonly totalDebitCents: bigint;
  readonly totalCreditCents: bigint;
}

export interface NachaFile {
  readonly header: FileHeader;
  readonly batches: readonly Batch[];
  readonly control: FileControl;
}

/** What the writer needs: the controls (and the service class codes, when absent) are computed. */
export interface NachaFileInput {
  readonly header: FileHeader;
  readonly batches: readonly {
    readonly header: Omit<BatchHeader, 'serviceClassCode' | 'batchNumber'> & { readonly serviceClassCode?: ServiceClassCode; readonly batchNumber?: number };
    readonly entries: readonly EntryDetail[];
  }[];
}

/** A file refused: `line` is the 1-based line of the first bad record (a control total that disagrees: the control's). */
export class NachaFormatError extends Error {
  override readonly name = 'NachaFormatError';
  constructor(
    readonly line: number,
    readonly problem: string,
  ) {
    super(`Line ${line}: ${problem}`);
  }
}

import type { Writable } from 'node:stream';
import { bankIdentity, bigCentsToDecimalString, type TrialBalance } from '@bank/domain';
import PDFDocument from 'pdfkit';
import { bankLetterhead, PDF_MARGIN, PDF_RIGHT, pipeDocument } from '../statements/pdfLetterhead';
import { footer } from '../statements/statementPdf';

export interface TrialBalancePdfOptions {
  /** Deflate the page contents (default true); tests read the text of uncompressed pages. */
  readonly compress?: boolean;
  /** The document's creation date (default now). */
  readonly createdAt?: Date;
  /** The bank's routing number as configured (BANK_ROUTING_NUMBER); default the development one of domain/src/bank.ts. */
  readonly routingNumber?: string;
}

// The statements' layout (pdfLetterhead.ts).
const MARGIN = PDF_MARGIN;
const ROW = 14;
const RIGHT = PDF_RIGHT;
const AMOUNT_WIDTH = 88;
const COLUMNS = { code: MARGIN, name: MARGIN + 44, type: MARGIN + 200, debits: RIGHT - 3 * AMOUNT_WIDTH, credits: RIGHT - 2 * AMOUNT_WIDTH, balance: RIGHT - AMOUNT_WIDTH } as const;

type Doc = InstanceType<typeof PDFDocument>;

/** "$1,250.50", "-$0.05" for any number of cents (a total may pass the safe integers). */
export function usdOfBigCents(cents: bigint): string {
  const decimal = bigCentsToDecimalString(cents < 0n ? -cents : cents);
  const [whole = '0', fraction = '00'] = decimal.split('.');
  return `${cents < 0n ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** The bank at the top left, the report and its instant at the top right; returns the y below. */
function letterhead(doc: Doc, at: Date, routingNumber: string): number {
  bankLetterhead(doc, 'Trial balance', [
    `As of ${at.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '')} UTC`,
    `Routing number ${routingNumber}`,
  ]);
  return MARGIN + 92;
}

function amounts(doc: Doc, y: number, debits: string, credits: string, balance: string): void {
  doc.text(debits, COLUMNS.debits, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
  doc.text(credits, COLUMNS.credits, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
  doc.text(balance, COLUMNS.balance, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
}

function tableHeader(doc: Doc, y: number): number {
  doc.font('Helvetica-Bold').fontSize(9);
  doc.text('Code', COLUMNS.code, y, { lineBreak: false });
  doc.text('Account', COLUMNS.name, y, { lineBreak: false });
  doc.text('Type', COLUMNS.type, y, { lineBreak: false });
  amounts(doc, y, 'Debits', 'Credits', 'Balance');
  doc.moveTo(MARGIN, y + ROW - 3).lineTo(RIGHT, y + ROW - 3).lineWidth(0.5).stroke();
  doc.font('Helvetica');
  return y + ROW + 2;
}

function totals(doc: Doc, y: number, trialBalance: TrialBalance): void {
  doc.moveTo(MARGIN, y).lineTo(RIGHT, y).lineWidth(0.5).stroke();
  doc.font('Helvetica-Bold').fontSize(10).text('Total', COLUMNS.name, y + 8, { lineBreak: false });
  amounts(doc, y + 8, usdOfBigCents(trialBalance.totalDebitsCents), usdOfBigCents(trialBalance.totalCreditsCents), '');
  const difference = trialBalance.totalDebitsCents - trialBalance.totalCreditsCents;
  const verdict = trialBalance.balanced
    ? 'Balanced: total debits equal total credits.'
    : `NOT BALANCED: total debits and total credits differ by ${usdOfBigCents(difference < 0n ? -difference : difference)}.`;
  doc.fillColor(trialBalance.balanced ? '#000000' : '#b00020').text(verdict, MARGIN, y + 8 + ROW + 8, { lineBreak: false });
  doc.font('Helvetica').fontSize(8).fillColor('#555555');
  doc.text("Totals from the bank's event log: every debit and credit up to the instant above.", MARGIN, y + 8 + 2 * ROW + 12, { lineBreak: false });
  doc.fillColor('#000000');
}

/**
 * The trial balance as a PDF in the statements' style: the bank at the top left, the report and its instant at the
 * top right, one table (every account of the chart: code, name, type, debits, credits, balance), the totals and
 * whether they balance, "Page 1" at the bottom. The chart is short: one page.
 */
export async function writeTrialBalancePdf(at: Date, trialBalance: TrialBalance, out: Writable, options: TrialBalancePdfOptions = {}): Promise<void> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    compress: options.compress ?? true,
    info: { Title: `Trial balance ${at.toISOString()}`, Author: bankIdentity.name, CreationDate: options.createdAt ?? new Date() },
  });
  const finished = pipeDocument(doc, out);
  let y = tableHeader(doc, letterhead(doc, at, options.routingNumber ?? bankIdentity.routingNumber));
  doc.fontSize(9);
  for (const row of trialBalance.rows) {
    doc.text(row.code, COLUMNS.code, y, { lineBreak: false });
    doc.text(row.name, COLUMNS.name, y, { width: COLUMNS.type - COLUMNS.name - 8, height: ROW, ellipsis: true, lineBreak: false });
    doc.text(row.type, COLUMNS.type, y, { lineBreak: false });
    amounts(doc, y, usdOfBigCents(row.debitsCents), usdOfBigCents(row.creditsCents), usdOfBigCents(row.balanceCents));
    y += ROW;
  }
  totals(doc, y + 6, trialBalance);
  footer(doc, 1);
  doc.end();
  await finished;
}

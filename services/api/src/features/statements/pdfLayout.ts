import type PDFDocument from 'pdfkit';
import { bankLetterhead, PDF_MARGIN, PDF_PAGE_HEIGHT, PDF_RIGHT } from './pdfLetterhead';

/** The bank's documents' layout (pdfLetterhead.ts) for a document made out to a customer (the interest statement). */
export const MARGIN = PDF_MARGIN;
export const PAGE_HEIGHT = PDF_PAGE_HEIGHT;
export const RIGHT = PDF_RIGHT;
export const ROW = 14;

export type Doc = InstanceType<typeof PDFDocument>;

/** Who a document is for: a name and address lines. */
export interface DocumentHolder {
  readonly name: string;
  readonly address: readonly string[];
}

export interface LetterheadContent {
  /** The document's name, top right ('Interest statement'). */
  readonly title: string;
  /** Lines under the title (year, account number, routing number). */
  readonly lines: readonly string[];
  /** The customer, below the bank. */
  readonly holder: DocumentHolder;
}

/** The bank's letterhead with the document at the top right, and the holder below as a statement has it; returns the y below. */
export function letterhead(doc: Doc, content: LetterheadContent): number {
  bankLetterhead(doc, content.title, content.lines);
  const holderY = MARGIN + 92;
  doc.font('Helvetica-Bold').fontSize(10).text(content.holder.name, MARGIN, holderY, { lineBreak: false });
  doc.font('Helvetica').fontSize(9);
  content.holder.address.forEach((line, index) => doc.text(line, MARGIN, holderY + 14 + index * 12, { lineBreak: false }));
  return holderY + 14 + content.holder.address.length * 12 + 20;
}

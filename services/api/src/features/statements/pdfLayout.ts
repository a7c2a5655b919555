import { bankIdentity } from '@bank/domain';
import type PDFDocument from 'pdfkit';

/** The bank's documents' layout (statements, the trial balance, the interest statement): US Letter, in points. */
export const MARGIN = 50;
export const PAGE_WIDTH = 612;
export const PAGE_HEIGHT = 792;
export const ROW = 14;
export const RIGHT = PAGE_WIDTH - MARGIN;

export type Doc = InstanceType<typeof PDFDocument>;

/** Who a document is for: a name and address lines. */
export interface DocumentHolder {
  readonly name: string;
  readonly address: readonly string[];
}

export interface LetterheadContent {
  /** The document's name, top right ('Statement'). */
  readonly title: string;
  /** Lines under the title (account, routing number, period). */
  readonly lines: readonly string[];
  /** The customer, below the bank. */
  readonly holder: DocumentHolder;
}

/** The bank at the top left, the document and its lines at the top right, the holder below; returns the y below. */
export function letterhead(doc: Doc, content: LetterheadContent): number {
  doc.font('Helvetica-Bold').fontSize(18).text(bankIdentity.name, MARGIN, MARGIN, { lineBreak: false });
  doc.font('Helvetica').fontSize(9);
  bankIdentity.address.forEach((line, index) => doc.text(line, MARGIN, MARGIN + 24 + index * 12, { lineBreak: false }));
  doc.text(`${bankIdentity.phone} · ${bankIdentity.email}`, MARGIN, MARGIN + 24 + bankIdentity.address.length * 12, { lineBreak: false });

  const right = { width: 230, align: 'right' as const, lineBreak: false };
  const x = RIGHT - 230;
  doc.font('Helvetica-Bold').fontSize(14).text(content.title, x, MARGIN, right);
  doc.font('Helvetica').fontSize(9);
  content.lines.forEach((line, index) => doc.text(line, x, MARGIN + 20 + index * 12, right));

  const holderY = MARGIN + 92;
  doc.font('Helvetica-Bold').fontSize(10).text(content.holder.name, MARGIN, holderY, { lineBreak: false });
  doc.font('Helvetica').fontSize(9);
  content.holder.address.forEach((line, index) => doc.text(line, MARGIN, holderY + 14 + index * 12, { lineBreak: false }));
  return holderY + 14 + content.holder.address.length * 12 + 20;
}

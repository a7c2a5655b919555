import type { Writable } from 'node:stream';
import { bankIdentity } from '@bank/domain';
import type PDFDocument from 'pdfkit';

type Doc = InstanceType<typeof PDFDocument>;

// US Letter, in points: the layout every PDF of the bank shares (statements, the trial balance).
export const PDF_MARGIN = 50;
export const PDF_PAGE_WIDTH = 612;
export const PDF_PAGE_HEIGHT = 792;
export const PDF_RIGHT = PDF_PAGE_WIDTH - PDF_MARGIN;
const RIGHT_BLOCK_WIDTH = 230;

/**
 * The top of a document's first page: the bank's name, address and contacts at the top left; the document's title
 * and its `lines` (account, period, instant…) at the top right, a line every 12 points.
 */
export function bankLetterhead(doc: Doc, title: string, lines: readonly string[]): void {
  doc.font('Helvetica-Bold').fontSize(18).text(bankIdentity.name, PDF_MARGIN, PDF_MARGIN, { lineBreak: false });
  doc.font('Helvetica').fontSize(9);
  bankIdentity.address.forEach((line, index) => doc.text(line, PDF_MARGIN, PDF_MARGIN + 24 + index * 12, { lineBreak: false }));
  doc.text(`${bankIdentity.phone} · ${bankIdentity.email}`, PDF_MARGIN, PDF_MARGIN + 24 + bankIdentity.address.length * 12, { lineBreak: false });

  const right = { width: RIGHT_BLOCK_WIDTH, align: 'right' as const, lineBreak: false };
  const x = PDF_RIGHT - RIGHT_BLOCK_WIDTH;
  doc.font('Helvetica-Bold').fontSize(14).text(title, x, PDF_MARGIN, right);
  doc.font('Helvetica').fontSize(9);
  lines.forEach((line, index) => doc.text(line, x, PDF_MARGIN + 20 + index * 12, right));
}

/** Pipes the document into `out`; the promise settles when `out` has taken all of it (or failed). */
export function pipeDocument(doc: InstanceType<typeof PDFDocument>, out: Writable): Promise<void> {
  const finished = new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('close', resolve);
    out.once('error', reject);
  });
  doc.pipe(out);
  return finished;
}

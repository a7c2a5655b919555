import type { Writable } from 'node:stream';
import { bankIdentity, formatUsd, type StatementTotals } from '@bank/domain';
import PDFDocument from 'pdfkit';
import { bankLetterhead, PDF_MARGIN, PDF_PAGE_HEIGHT, PDF_RIGHT, pipeDocument } from './pdfLetterhead';
import { kindLabel, signedCents } from './statementFormat';
import type { StatementItem, StatementSource } from './statementSource';
import { drained } from './writeOut';

export interface PdfOptions {
  /** Deflate the page contents (default true); tests read the text of uncompressed pages. */
  readonly compress?: boolean;
  /** The document's creation date (default now); the committed example fixes it, so it is the same on every run. */
  readonly createdAt?: Date;
  /** The bank's routing number as configured (BANK_ROUTING_NUMBER); default the development one of domain/src/bank.ts. */
  readonly routingNumber?: string;
}

const ACCOUNT_NAMES = { checking: 'Checking account', savings: 'Savings account' } as const;

const MARGIN = PDF_MARGIN;
const PAGE_HEIGHT = PDF_PAGE_HEIGHT;
const ROW = 14;
const FOOTER_Y = PAGE_HEIGHT - MARGIN + 12;
/** The last y a row may start at. */
const LAST_ROW_Y = PAGE_HEIGHT - MARGIN - ROW;
const COLUMNS = { date: MARGIN, description: MARGIN + 72, type: MARGIN + 272, amount: MARGIN + 352, balance: MARGIN + 432 } as const;
const RIGHT = PDF_RIGHT;

type Doc = InstanceType<typeof PDFDocument>;

function day(iso: string): string {
  return iso.slice(0, 10);
}

/** The page number at the bottom; pdfkit would start a new page for text below the bottom margin, so it is lifted. */
export function footer(doc: Doc, page: number): void {
  const bottom = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  doc.font('Helvetica').fontSize(8).fillColor('#555555').text(`Page ${page}`, MARGIN, FOOTER_Y, { width: RIGHT - MARGIN, align: 'center', lineBreak: false });
  doc.fillColor('#000000');
  doc.page.margins.bottom = bottom;
}

function tableHeader(doc: Doc, y: number): number {
  doc.font('Helvetica-Bold').fontSize(9);
  doc.text('Date', COLUMNS.date, y, { lineBreak: false });
  doc.text('Description', COLUMNS.description, y, { lineBreak: false });
  doc.text('Type', COLUMNS.type, y, { lineBreak: false });
  doc.text('Amount', COLUMNS.amount, y, { width: 70, align: 'right', lineBreak: false });
  doc.text('Balance', COLUMNS.balance, y, { width: RIGHT - COLUMNS.balance, align: 'right', lineBreak: false });
  doc.moveTo(MARGIN, y + ROW - 3).lineTo(RIGHT, y + ROW - 3).lineWidth(0.5).stroke();
  doc.font('Helvetica');
  return y + ROW + 2;
}

function row(doc: Doc, y: number, cells: { date: string; description: string; type: string; amount: string; balance: string }): void {
  doc.fontSize(9);
  doc.text(cells.date, COLUMNS.date, y, { lineBreak: false });
  doc.text(cells.description, COLUMNS.description, y, { width: COLUMNS.type - COLUMNS.description - 8, height: ROW, ellipsis: true, lineBreak: false });
  doc.text(cells.type, COLUMNS.type, y, { lineBreak: false });
  doc.text(cells.amount, COLUMNS.amount, y, { width: 70, align: 'right', lineBreak: false });
  doc.text(cells.balance, COLUMNS.balance, y, { width: RIGHT - COLUMNS.balance, align: 'right', lineBreak: false });
}

/** The bank at the top left, the statement at the top right, its holder below; returns the y below. */
function letterhead(doc: Doc, source: StatementSource, routingNumber: string): number {
  bankLetterhead(doc, 'Statement', [
    `${ACCOUNT_NAMES[source.account]} ${source.holder.accountNumber}`,
    `Routing number ${routingNumber}`,
    `Period ${source.period.from} to ${source.period.to} (UTC)`,
  ]);
  const holderY = MARGIN + 92;
  doc.font('Helvetica-Bold').fontSize(10).text(source.holder.name, MARGIN, holderY, { lineBreak: false });
  doc.font('Helvetica').fontSize(9);
  source.holder.address.forEach((line, index) => doc.text(line, MARGIN, holderY + 14 + index * 12, { lineBreak: false }));
  return holderY + 14 + source.holder.address.length * 12 + 20;
}

function totalsBlock(doc: Doc, y: number, totals: StatementTotals): void {
  doc.moveTo(MARGIN, y).lineTo(RIGHT, y).lineWidth(0.5).stroke();
  const entries: [string, number][] = [
    ['Opening balance', totals.openingCents],
    ['Total in', totals.totalInCents],
    ['Total out', totals.totalOutCents],
    ['Closing balance', totals.closingCents],
  ];
  entries.forEach(([label, cents], index) => {
    const top = y + 8 + index * ROW;
    doc.font(index === entries.length - 1 ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    doc.text(label, COLUMNS.type, top, { lineBreak: false });
    doc.text(formatUsd(cents), COLUMNS.balance - 40, top, { width: RIGHT - COLUMNS.balance + 40, align: 'right', lineBreak: false });
  });
  doc.font('Helvetica').fontSize(8).fillColor('#555555');
  doc.text(`${totals.lines} transaction${totals.lines === 1 ? '' : 's'}. Balances from the bank's event log at the period's bounds.`, MARGIN, y + 8 + entries.length * ROW + 6, {
    lineBreak: false,
  });
  doc.fillColor('#000000');
}

/**
 * Streams the statement as a PDF: the bank's name and address, the holder, the account and period, the opening
 * balance, one row per transaction with the running balance, "Page N" on every page, the totals at the end. Each
 * page goes out when the next one starts (pdfkit without buffered pages), and the writer waits for the client
 * whenever the connection's buffer is full, so memory stays bounded however long the statement.
 */
export async function writeStatementPdf(source: StatementSource, items: AsyncIterable<StatementItem>, out: Writable, options: PdfOptions = {}): Promise<void> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    compress: options.compress ?? true,
    info: { Title: `Statement ${source.account} ${source.period.from} to ${source.period.to}`, Author: bankIdentity.name, CreationDate: options.createdAt ?? new Date() },
  });
  const finished = pipeDocument(doc, out);

  let page = 1;
  let y = letterhead(doc, source, options.routingNumber ?? bankIdentity.routingNumber);
  const newPage = async () => {
    footer(doc, page);
    doc.addPage();
    page += 1;
    await drained(out);
    y = tableHeader(doc, MARGIN);
  };

  for await (const item of items) {
    if (item.kind === 'opening') {
      doc.font('Helvetica-Bold').fontSize(10).text('Opening balance', MARGIN, y, { lineBreak: false });
      doc.text(formatUsd(item.openingCents), COLUMNS.balance - 40, y, { width: RIGHT - COLUMNS.balance + 40, align: 'right', lineBreak: false });
      y = tableHeader(doc, y + ROW + 8);
    } else if (item.kind === 'line') {
      if (y > LAST_ROW_Y) await newPage();
      const { line } = item;
      row(doc, y, { date: day(line.date), description: line.description, type: kindLabel(line), amount: formatUsd(signedCents(line)), balance: formatUsd(line.balanceAfterCents) });
      y += ROW;
    } else {
      if (y + 5 * ROW + 24 > PAGE_HEIGHT - MARGIN) await newPage();
      totalsBlock(doc, y + 6, item.totals);
    }
  }
  footer(doc, page);
  doc.end();
  await finished;
}

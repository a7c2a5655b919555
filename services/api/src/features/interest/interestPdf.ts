import type { Writable } from 'node:stream';
import { apyOf, bankIdentity, formatAnnualRate, monthName, monthOf } from '@bank/domain';
import PDFDocument from 'pdfkit';
import { usdOfBigCents } from '../ledger/trialBalancePdf';
import { letterhead, MARGIN, PAGE_HEIGHT, RIGHT, ROW, type Doc } from '../statements/pdfLayout';
import { pipeDocument } from '../statements/pdfLetterhead';
import { footer } from '../statements/statementPdf';
import type { StatementHolder } from '../statements/statementSource';
import type { InterestSummary } from './interestSummary';

export interface InterestStatement {
  readonly holder: StatementHolder;
  readonly summary: InterestSummary;
  /** The savings rate in force (annualRate, ten-thousandths of a percent). */
  readonly savingsRate: number;
  /** The business date the statement is made on. */
  readonly businessDate: string;
}

export interface InterestPdfOptions {
  /** Deflate the page contents (default true); tests read the text of uncompressed pages. */
  readonly compress?: boolean;
  /** The document's creation date (default now). */
  readonly createdAt?: Date;
}

const ACCOUNT_NAMES = { checking: 'Checking account', savings: 'Savings account' } as const;
const COLUMNS = { month: MARGIN, date: MARGIN + 150, account: MARGIN + 260, amount: RIGHT - 110 } as const;
const AMOUNT_WIDTH = 110;
const LAST_ROW_Y = PAGE_HEIGHT - MARGIN - ROW;

/** '2026-03' → 'March 2026' (the domain's calendar). */
export { monthName };

/** `interest-2026.pdf`. */
export function interestFileName(year: number): string {
  return `interest-${year}.pdf`;
}

function tableHeader(doc: Doc, y: number): number {
  doc.font('Helvetica-Bold').fontSize(9);
  doc.text('Month', COLUMNS.month, y, { lineBreak: false });
  doc.text('Paid on', COLUMNS.date, y, { lineBreak: false });
  doc.text('Account', COLUMNS.account, y, { lineBreak: false });
  doc.text('Interest paid', COLUMNS.amount, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
  doc.moveTo(MARGIN, y + ROW - 3).lineTo(RIGHT, y + ROW - 3).lineWidth(0.5).stroke();
  doc.font('Helvetica');
  return y + ROW + 2;
}

function labelledAmount(doc: Doc, y: number, label: string, cents: bigint, bold = false): void {
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
  doc.text(label, COLUMNS.account - 60, y, { lineBreak: false });
  doc.text(usdOfBigCents(cents), COLUMNS.amount, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
}

/**
 * The year's interest statement, what a customer needs for a tax return: the bank and its details, the customer and
 * their account number, each month's payment (month, date paid, account, amount), the totals per account and for
 * the year, and, for the running year, the interest accrued this month and not paid yet. A year has at most 24
 * payments; a longer list would continue on the next page with the table's header.
 */
export async function writeInterestPdf(statement: InterestStatement, out: Writable, options: InterestPdfOptions = {}): Promise<void> {
  const { holder, summary, savingsRate, businessDate } = statement;
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    compress: options.compress ?? true,
    info: { Title: `Interest statement ${summary.year}`, Author: bankIdentity.name, CreationDate: options.createdAt ?? new Date() },
  });
  const finished = pipeDocument(doc, out);

  let page = 1;
  let y = letterhead(doc, {
    title: 'Interest statement',
    lines: [`Tax year ${summary.year}`, `Account number ${holder.accountNumber}`, `Routing number ${bankIdentity.routingNumber}`, `Issued on ${businessDate}`],
    holder,
  });
  doc.font('Helvetica-Bold').fontSize(12).text(`Interest paid in ${summary.year}`, MARGIN, y, { lineBreak: false });
  y = tableHeader(doc, y + ROW + 8);

  if (summary.payments.length === 0) {
    doc.font('Helvetica').fontSize(9).text(`No interest was paid in ${summary.year}.`, MARGIN, y, { lineBreak: false });
    y += ROW;
  }
  for (const payment of summary.payments) {
    if (y > LAST_ROW_Y) {
      footer(doc, page);
      doc.addPage();
      page += 1;
      y = tableHeader(doc, MARGIN);
    }
    doc.font('Helvetica').fontSize(9);
    doc.text(monthName(payment.month), COLUMNS.month, y, { lineBreak: false });
    doc.text(payment.date, COLUMNS.date, y, { lineBreak: false });
    doc.text(ACCOUNT_NAMES[payment.account], COLUMNS.account, y, { lineBreak: false });
    doc.text(usdOfBigCents(payment.amountCents), COLUMNS.amount, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
    y += ROW;
  }

  const running = businessDate.startsWith(`${summary.year}-`);
  if (y + 9 * ROW > PAGE_HEIGHT - MARGIN) {
    footer(doc, page);
    doc.addPage();
    page += 1;
    y = MARGIN;
  }
  y += 6;
  doc.moveTo(MARGIN, y).lineTo(RIGHT, y).lineWidth(0.5).stroke();
  y += 8;
  const byAccount = { savings: 0n, checking: 0n };
  for (const payment of summary.payments) byAccount[payment.account] += payment.amountCents;
  labelledAmount(doc, y, 'Savings account', byAccount.savings);
  labelledAmount(doc, y + ROW, 'Checking account', byAccount.checking);
  labelledAmount(doc, y + 2 * ROW, `Total interest paid in ${summary.year}`, summary.paidThisYearCents, true);
  y += 3 * ROW + 10;

  doc.font('Helvetica').fontSize(9);
  if (running) {
    doc.text(
      `Accrued in ${monthName(monthOf(businessDate))} and not paid yet: ${usdOfBigCents(summary.accruedThisMonthCents)} (paid at the close of the month's last day).`,
      MARGIN,
      y,
      { width: RIGHT - MARGIN },
    );
    y += ROW;
  }
  doc.text(`Savings rate in force on ${businessDate}: ${formatAnnualRate(savingsRate)} % a year (APY ${apyOf(savingsRate)} %).`, MARGIN, y, { width: RIGHT - MARGIN });
  y += ROW + 6;
  doc.font('Helvetica').fontSize(8).fillColor('#555555');
  doc.text(
    'Interest accrues every day on the end-of-day balance (rate ÷ 365) and is paid on the last day of each month, rounded half to even to the cent. Keep this statement with your tax records.',
    MARGIN,
    y,
    { width: RIGHT - MARGIN },
  );
  doc.fillColor('#000000');
  footer(doc, page);
  doc.end();
  await finished;
}

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pdfPageCount, pdfText } from '../statements/testing/pdfText';
import { interestFileName, monthName, writeInterestPdf, type InterestStatement } from './interestPdf';
import type { InterestSummary } from './interestSummary';

const holder = { userId: '00000000-0000-4000-8000-000000000001', name: 'Jordan Example', address: ['12 Main Street', 'CO'], accountNumber: '7012345678' };

function summaryOf(payments: InterestSummary['payments'], accruedThisMonthCents = 0n): InterestSummary {
  return {
    year: 2026,
    accruedThisMonthCents,
    accruedThisMonthByAccount: { savings: accruedThisMonthCents, checking: 0n },
    paidThisYearCents: payments.reduce((sum, payment) => sum + payment.amountCents, 0n),
    payments,
  };
}

async function pdfOf(statement: InterestStatement): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await writeInterestPdf(statement, out, { compress: false, createdAt: new Date('2026-12-31T12:00:00.000Z') });
  return Buffer.concat(chunks);
}

describe('the interest statement as a PDF', () => {
  it("the bank, the customer, each month's payment, the totals per account and for the year, the open month and the rate", async () => {
    const payments = [
      { transactionId: 't1', account: 'savings' as const, month: '2026-01', date: '2026-01-31', amountCents: 4_247n },
      { transactionId: 't2', account: 'savings' as const, month: '2026-02', date: '2026-02-28', amountCents: 3_836n },
      { transactionId: 't3', account: 'checking' as const, month: '2026-02', date: '2026-02-28', amountCents: 1n },
      { transactionId: 't4', account: 'savings' as const, month: '2026-03', date: '2026-03-31', amountCents: 1_234_567n },
    ];
    const pdf = await pdfOf({ holder, summary: summaryOf(payments, 1_999n), savingsRate: 41_250, businessDate: '2026-04-15' });
    expect(pdfPageCount(pdf)).toBe(1);
    const text = pdfText(pdf);
    for (const expected of [
      'Summit Bank',
      '1200 Summit Plaza',
      'Interest statement',
      'Tax year 2026',
      'Account number 7012345678',
      'Routing number 102000021',
      'Jordan Example',
      '12 Main Street',
      'January 2026',
      '2026-01-31',
      '$42.47',
      'February 2026',
      '$38.36',
      'Checking account',
      '$0.01',
      '$12,345.67',
      'Total interest paid in 2026',
      '$12,426.51',
      '$12,426.50',
      'Page 1',
    ]) {
      expect(text, expected).toContain(expected);
    }
    // The open month's accrual (the statement is of the running year) and the savings rate with its APY.
    expect(text.replace(/\n/g, ' ')).toContain('$19.99');
    expect(text.replace(/\n/g, ' ')).toMatch(/4\.125 % a year \(APY 4\.20 %\)/);
  });

  it('a year without payments says so, and a past year shows no open month', async () => {
    const text = pdfText(await pdfOf({ holder, summary: summaryOf([], 500n), savingsRate: 50_000, businessDate: '2027-01-10' }));
    expect(text).toContain('No interest was paid in 2026.');
    expect(text).toContain('$0.00');
    expect(text).not.toContain('not paid yet');
  });

  it('names the file and the months', () => {
    expect(interestFileName(2026)).toBe('interest-2026.pdf');
    expect(monthName('2026-02')).toBe('February 2026');
  });
});

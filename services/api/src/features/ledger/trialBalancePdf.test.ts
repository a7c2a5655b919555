import { Writable } from 'node:stream';
import { emptyLedgerTotals, trialBalanceOf } from '@bank/domain';
import { describe, expect, it } from 'vitest';
import { pdfPageCount, pdfText } from '../statements/testing/pdfText';
import { trialBalanceCsv } from './ledgerCsv';
import { usdOfBigCents, writeTrialBalancePdf } from './trialBalancePdf';

async function pdfOf(balanced: boolean, routingNumber?: string): Promise<Buffer> {
  const totals = emptyLedgerTotals();
  totals.set('customer-savings', { debitsCents: 10_00n, creditsCents: 1_250_000_00n });
  totals.set('staff-adjustments', { debitsCents: balanced ? 1_249_990_00n : 1_249_990_01n, creditsCents: 0n });
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await writeTrialBalancePdf(new Date('2025-03-01T12:00:00.000Z'), trialBalanceOf(totals), out, { compress: false, ...(routingNumber ? { routingNumber } : {}) });
  return Buffer.concat(chunks);
}

describe('the trial balance as a document', () => {
  it('a PDF page: the bank, the instant, every account, the totals and that they balance', async () => {
    const pdf = await pdfOf(true);
    expect(pdfPageCount(pdf)).toBe(1);
    const text = pdfText(pdf);
    expect(text).toContain('Trial balance');
    expect(text).toContain('As of 2025-03-01 12:00:00 UTC');
    expect(text).toContain('$1,250,000.00');
    expect(text).toContain('$1,249,990.00');
    expect(text).toContain('Balanced: total debits equal total credits.');
    expect(text).toContain('Page 1');
    expect(text).toContain('Routing number 102000021');
  });

  it('prints the configured routing number (BANK_ROUTING_NUMBER)', async () => {
    expect(pdfText(await pdfOf(true, '021000021'))).toContain('Routing number 021000021');
  });

  it('says so, in red, when the books do not balance', async () => {
    const text = pdfText(await pdfOf(false));
    expect(text).toContain('NOT BALANCED: total debits and total credits differ by $0.01.');
  });

  it('a CSV with a record per account of the chart and the totals', () => {
    const totals = emptyLedgerTotals();
    totals.set('cash-at-fed', { debitsCents: 0n, creditsCents: 30_00n });
    totals.set('ach-outbound', { debitsCents: 30_00n, creditsCents: 0n });
    const csv = trialBalanceCsv(trialBalanceOf(totals));
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('code,key,name,type,debits,credits,balance');
    expect(lines).toHaveLength(trialBalanceOf(totals).rows.length + 3);
    expect(lines.find((line) => line.includes(',cash-at-fed,'))).toMatch(/,0\.00,30\.00,-30\.00$/);
    expect(lines.at(-2)).toBe(',,Total (balanced),,30.00,30.00,');
    expect(lines.at(-1)).toBe('');
  });

  it('formats any number of cents as dollars', () => {
    expect(usdOfBigCents(0n)).toBe('$0.00');
    expect(usdOfBigCents(-5n)).toBe('-$0.05');
    expect(usdOfBigCents(123_456_789_012_345_678_90n)).toBe('$123,456,789,012,345,678.90');
  });
});

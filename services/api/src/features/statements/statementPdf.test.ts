import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { exampleHistory, exampleStatement } from './exampleStatement';
import { writeStatementPdf, type PdfOptions } from './statementPdf';
import { pdfText } from './testing/pdfText';

async function statementPdfText(options: PdfOptions): Promise<string> {
  const source = exampleStatement(exampleHistory(new Date('2026-09-01T00:00:00.000Z'), 2), 'checking', '2026-10-01', '2026-10-31');
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await writeStatementPdf(source, source.items, out, { compress: false, ...options });
  return pdfText(Buffer.concat(chunks));
}

describe('the statement PDF’s letterhead', () => {
  it('prints the configured routing number (BANK_ROUTING_NUMBER), the development default otherwise', async () => {
    expect(await statementPdfText({ routingNumber: '021000021' })).toContain('Routing number 021000021');
    expect(await statementPdfText({})).toContain('Routing number 102000021');
  });
});

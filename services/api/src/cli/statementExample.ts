/**
 * npm run statement:example — writes docs/examples/statement-example.pdf and .csv: one month of a generated
 * customer's checking account, through the same fold and writers as GET /statements (no database needed).
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { exampleHistory, exampleStatement } from '../features/statements/exampleStatement';
import { writeStatementCsv } from '../features/statements/statementCsv';
import { writeStatementPdf } from '../features/statements/statementPdf';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/examples');
mkdirSync(out, { recursive: true });
const history = exampleHistory(new Date('2026-09-01T00:00:00.000Z'), 2);
const [from, to] = ['2026-10-01', '2026-10-31'];

async function write(file: string, render: (sink: Writable) => Promise<void>): Promise<void> {
  const sink = createWriteStream(path.join(out, file));
  await render(sink);
  if (!sink.writableEnded) sink.end();
  await new Promise<void>((resolve, reject) => sink.once('close', resolve).once('error', reject));
  console.log(`wrote docs/examples/${file}`);
}

await write('statement-example.pdf', (sink) => {
  const source = exampleStatement(history, 'checking', from, to);
  return writeStatementPdf(source, source.items, sink, { createdAt: new Date('2026-11-01T08:00:00.000Z') });
});
await write('statement-example.csv', (sink) => {
  const source = exampleStatement(history, 'checking', from, to);
  return writeStatementCsv(source, source.items, sink);
});

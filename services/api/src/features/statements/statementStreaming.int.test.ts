import { Writable } from 'node:stream';
import { formatUsd, statementPeriod, type StatementPeriod } from '@bank/domain';
import type { EventStore } from '@bank/eventstore';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistoryBuilder } from '../../testing/historyBuilder';
import { parseCsv } from '../../testing/parseCsv';
import { writeStatementCsv } from './statementCsv';
import { writeStatementPdf } from './statementPdf';
import { openStatement, STATEMENT_PAGE_SIZE } from './statementSource';
import { appendLongHistory } from './testing/longHistory';
import { pdfPageCount, pdfText } from './testing/pdfText';
import { createStatementTestApp, type StatementTestApp } from './testing/statementTestApp';

/**
 * A long history (20,000 postings appended straight to the store) streams: the answer is written while the
 * account stream is still being read, one page at a time. Counts work (events read, rows, pages), never time.
 */
const COUNT = 20_000;
const START = new Date('2025-03-01T00:00:00.000Z');

let t: StatementTestApp;
/** Events the statement routes have read from account streams so far. */
let accountEventsRead = 0;
let userId = '';
let closingCents = 0;
let period: StatementPeriod;

/** Bytes the server has written into statement answers so far. */
let bytesSent = 0;

/** While set, a read of an account stream from `fromRevision` on waits: the test sees what happened until then. */
let gate: { fromRevision: bigint; reached: () => void; released: Promise<void> } | undefined;

/** The store as the routes see it, counting the events of account streams it hands out (and holding at the gate). */
function counting(store: EventStore): EventStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'readStream') {
        return async (stream: string, options?: { fromRevision?: bigint; limit?: number }) => {
          if (gate && stream.startsWith('account-') && (options?.fromRevision ?? 0n) >= gate.fromRevision) {
            gate.reached();
            await gate.released;
          }
          const events = await target.readStream(stream, options);
          if (stream.startsWith('account-')) accountEventsRead += events.length;
          return events;
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/** A sink that records, at each write, how many events had been read. */
function recordingSink(readSoFar: () => number) {
  const writes: { bytes: number; eventsRead: number }[] = [];
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      writes.push({ bytes: buffer.length, eventsRead: readSoFar() });
      chunks.push(buffer);
      done();
    },
  });
  return { sink, writes, body: () => Buffer.concat(chunks) };
}

beforeAll(async () => {
  t = await createStatementTestApp('statements_streaming', counting, (_req, res, next) => {
    const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      bytesSent += typeof chunk === 'string' ? Buffer.byteLength(chunk) : (chunk as Buffer).length;
      return write(chunk, ...rest);
    }) as typeof res.write;
    next();
  });
  const history = createHistoryBuilder(t.store);
  userId = await history.register({ firstName: 'Long', lastName: 'History', email: 'long.history@example.com', accountNumber: '4000000001' }, new Date('2025-02-01T00:00:00.000Z'));
  closingCents = await appendLongHistory(t.store, userId, COUNT, START);
  const p = statementPeriod('2025-03-01', '2025-03-31');
  if ('message' in p) throw new Error(p.message);
  period = p;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a statement over 20,000 transactions', () => {
  it('answers the CSV with every row, its closing balance that of the history', async () => {
    accountEventsRead = 0;
    const res = await request(t.app).get(`/audit/users/${userId}/statements`).query({ account: 'checking', from: '2025-03-01', to: '2025-03-31', format: 'csv' }).expect(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="statement-checking-2025-03-01-2025-03-31.csv"');
    const rows = parseCsv(res.text);
    // header, opening, 20,000 transactions (all within March: 20,000 minutes < 14 days), closing
    expect(rows).toHaveLength(COUNT + 3);
    expect(rows.at(-1)).toEqual(['2025-03-31', '', 'Closing balance', 'closing', '', (closingCents / 100).toFixed(2)]);
    expect(accountEventsRead).toBeGreaterThan(COUNT);
  }, 60_000);

  it('over HTTP: rows have left the server before the third page of the stream is read', async () => {
    accountEventsRead = 0;
    bytesSent = 0;
    let release = () => {};
    const reached = new Promise<void>((resolve) => {
      gate = { fromRevision: BigInt(2 * STATEMENT_PAGE_SIZE), reached: resolve, released: new Promise<void>((done) => (release = done)) };
    });
    const answer = request(t.app)
      .get(`/audit/users/${userId}/statements`)
      .query({ account: 'checking', from: '2025-03-01', to: '2025-03-31', format: 'csv' })
      .then((res) => res);
    try {
      await reached;
      // The server holds at the third page: two pages read, and their rows already written to the client.
      expect(accountEventsRead).toBe(2 * STATEMENT_PAGE_SIZE);
      expect(bytesSent).toBeGreaterThan(0);
    } finally {
      gate = undefined;
      release();
    }
    const res = await answer;
    expect(res.status).toBe(200);
    expect(parseCsv(res.text)).toHaveLength(COUNT + 3);
    expect(accountEventsRead).toBeGreaterThan(COUNT);
  }, 60_000);

  it('writes the first CSV rows after reading one page, long before the stream is read through', async () => {
    accountEventsRead = 0;
    const source = await openStatement(t.store, userId, 'checking', period, { onPage: (events) => (accountEventsRead += events) });
    const { sink, writes, body } = recordingSink(() => accountEventsRead);
    await writeStatementCsv(source!, source!.items, sink);
    expect(writes[0]!.eventsRead).toBeLessThanOrEqual(STATEMENT_PAGE_SIZE);
    expect(accountEventsRead).toBeGreaterThan(COUNT);
    // Every write holds a bounded number of rows, whatever the history's length.
    expect(Math.max(...writes.map((w) => w.bytes))).toBeLessThan(64 * 1024);
    expect(writes.length).toBeGreaterThan(COUNT / 500);
    expect(parseCsv(body().toString('utf8'))).toHaveLength(COUNT + 3);
  }, 60_000);

  it('streams the PDF page by page: pages go out while the stream is still being read; many pages, the totals at the end', async () => {
    accountEventsRead = 0;
    const source = await openStatement(t.store, userId, 'checking', period, { onPage: (events) => (accountEventsRead += events) });
    const { sink, writes, body } = recordingSink(() => accountEventsRead);
    await writeStatementPdf(source!, source!.items, sink, { compress: false });
    const pdf = body();
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = pdfPageCount(pdf);
    expect(pages).toBeGreaterThan(COUNT / 60);
    // Bytes of finished pages were written while fewer than half of the events had been read.
    const early = writes.filter((w) => w.eventsRead < COUNT / 2).reduce((sum, w) => sum + w.bytes, 0);
    expect(early).toBeGreaterThan(pdf.length / 10);
    const text = pdfText(pdf);
    expect(text).toContain('Closing balance');
    expect(text).toContain(formatUsd(closingCents));
    expect(text).toContain(`Page ${pages}`);
    expect(text).toContain('Posting 20000');
  }, 120_000);
});

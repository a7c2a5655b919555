/**
 * Event-store benchmark (PostgreSQL adapter): `npm run bench:eventstore`.
 *
 * In a fresh database `bank_bench_<random>` (on DATABASE_URL's server, default the local one; dropped at the end):
 * appends 20,000 events to 2,000 streams (10 per stream, one event per append, each with its expected revision)
 * with 1, 8 and 32 appends in flight, fresh streams per run; then reads the whole log back in global order with
 * readAll pages and checks that every appended event came back exactly once, in strictly increasing positions.
 */
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { createPool, ensureDatabase, quoteIdent } from '@bank/platform';
import pg from 'pg';
import { comparePositions, type EventStore, type Position } from '../src/eventStore';
import { ensureEventStoreSchema } from '../src/postgres/ensureEventStoreSchema';
import { createPostgresEventStore } from '../src/postgres/postgresEventStore';

const STREAMS = 2_000;
const EVENTS_PER_STREAM = 10;
const CONCURRENCY = [1, 8, 32];
const READ_PAGE = 1_000;
const WARM_UP_STREAMS = 64;

interface RunResult {
  readonly inFlight: number;
  readonly events: number;
  readonly seconds: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `inFlight` workers each take the next stream and append its events one by one with the expected revision. */
async function appendRun(store: EventStore, label: string, streams: number, inFlight: number, appended: Set<string>): Promise<RunResult> {
  const latencies: number[] = [];
  let nextStream = 0;
  const worker = async () => {
    for (let index = nextStream++; index < streams; index = nextStream++) {
      const stream = `account-${label}-${index}`;
      for (let revision = 0; revision < EVENTS_PER_STREAM; revision += 1) {
        const id = randomUUID();
        const started = process.hrtime.bigint();
        await store.append(
          stream,
          [
            {
              id,
              type: 'MoneyDeposited',
              data: { accountId: stream, amountCents: 100 + revision, description: 'Bench deposit', transactionId: randomUUID() },
              metadata: { actorId: 'bench', actorRole: 'system', requestId: randomUUID(), correlationId: randomUUID() },
            },
          ],
          revision === 0 ? 'no_stream' : BigInt(revision - 1),
        );
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        appended.add(id);
      }
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return { inFlight, events: latencies.length, seconds, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}

async function readEverything(store: EventStore, appended: Set<string>) {
  const seen = new Set<string>();
  let duplicates = 0;
  let outOfOrder = 0;
  let after: Position | undefined;
  const started = process.hrtime.bigint();
  for (;;) {
    const page = await store.readAll({ after, limit: READ_PAGE });
    if (page.length === 0) break;
    for (const event of page) {
      if (seen.has(event.id)) duplicates += 1;
      seen.add(event.id);
      if (after && comparePositions(after, event.position) >= 0) outOfOrder += 1;
      after = event.position;
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const missing = [...appended].filter((id) => !seen.has(id)).length;
  return { events: seen.size + duplicates, seconds, duplicates, outOfOrder, missing };
}

async function dropDatabase(url: URL): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(url.pathname.slice(1))} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bank');
  url.pathname = `/bank_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await ensureDatabase(url.toString());
  const pool = createPool(url.toString(), Math.max(...CONCURRENCY) + 4);
  let failed: boolean;
  try {
    await ensureEventStoreSchema(pool);
    const store = createPostgresEventStore({ pool });
    const appended = new Set<string>();
    console.log(`event-store bench: PostgreSQL adapter, database ${url.pathname.slice(1)}, ${cpus().length} CPU cores, node ${process.version}`);
    console.log(`load average before: ${loadavg().map((value) => value.toFixed(2)).join(' ')} (other work on the machine skews the numbers)`);
    console.log(`${STREAMS} streams x ${EVENTS_PER_STREAM} events per run, one event per append with its expected revision\n`);

    await appendRun(store, 'warmup', WARM_UP_STREAMS, Math.max(...CONCURRENCY), appended);
    const results: RunResult[] = [];
    for (const inFlight of CONCURRENCY) {
      const result = await appendRun(store, `c${inFlight}`, STREAMS, inFlight, appended);
      results.push(result);
      console.log(
        `append  ${String(inFlight).padStart(2)} in flight: ${String(result.events).padStart(6)} events in ${result.seconds.toFixed(2)} s = ` +
          `${Math.round(result.events / result.seconds)
            .toString()
            .padStart(6)} events/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms`,
      );
    }

    const read = await readEverything(store, appended);
    console.log(
      `\nread    readAll pages of ${READ_PAGE}: ${read.events} events in ${read.seconds.toFixed(2)} s = ${Math.round(read.events / read.seconds)} events/s`,
    );
    console.log(
      `check   appended ${appended.size} (incl. ${WARM_UP_STREAMS * EVENTS_PER_STREAM} warm-up), read ${read.events}: ` +
        `missing ${read.missing}, duplicates ${read.duplicates}, out of order ${read.outOfOrder}`,
    );
    failed = read.missing > 0 || read.duplicates > 0 || read.outOfOrder > 0 || read.events !== appended.size;
    if (failed) console.error('FAILED: the log read back does not match what was appended');
    await store.close();
  } finally {
    await pool.end();
    await dropDatabase(url);
  }
  if (failed) process.exitCode = 1;
}

await main();

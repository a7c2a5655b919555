/**
 * Projector benchmark: `npm run bench:projector`.
 *
 * 1. Creates a fresh database (on the server of DATABASE_URL) with the PostgreSQL event store.
 * 2. Bulk-loads BENCH_EVENTS (default 100,000) valid domain events from the random workload generator straight into
 *    the event store's table (a bench-only fast path: thousands of rows per INSERT).
 * 3. Rebuilds the read models from position 0 and reports events/s.
 * 4. Starts the live projector and appends BENCH_RATE events/s (default 200) for BENCH_SECONDS (default 20) through
 *    the store's append; for each append measures the time from the append's start to the read models having
 *    applied it (createProjectionReader().waitForPosition), and reports p50/p90/p99/max.
 * The bench database is dropped at the end (BENCH_KEEP=1 keeps it).
 */
import { createPostgresEventStore, ensureEventStoreSchema, type Position } from '@bank/eventstore';
import { createPool, loadConfig, quoteIdent } from '@bank/platform';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createProjectionReader } from '../src/reader/projectionReader';
import { rebuildProjections } from '../src/rebuild/rebuildProjections';
import { startProjector } from '../src/runner/projectorRunner';
import { generateWorkload } from '../src/testing/randomWorkload';
import type { StreamEvent } from '../src/testing/recordedEvents';
import { verifyReadModels } from '../src/verify/verifyReadModels';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CHUNK = 5_000;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function bulkLoad(pool: pg.Pool, events: readonly StreamEvent[]): Promise<void> {
  const revisions = new Map<string, number>();
  for (let start = 0; start < events.length; start += CHUNK) {
    const chunk = events.slice(start, start + CHUNK);
    const streams: string[] = [];
    const revs: number[] = [];
    const ids: string[] = [];
    const types: string[] = [];
    const data: string[] = [];
    const metadata: string[] = [];
    for (const item of chunk) {
      const revision = revisions.get(item.stream) ?? 0;
      revisions.set(item.stream, revision + 1);
      streams.push(item.stream);
      revs.push(revision);
      ids.push(randomUUID());
      types.push(item.event.type);
      data.push(JSON.stringify(item.event.data));
      metadata.push(JSON.stringify({ schemaVersion: 1, ...item.metadata }));
    }
    await pool.query(
      `INSERT INTO eventstore.events (stream_id, revision, event_id, type, data, metadata)
       SELECT s, r, i, t, d, m FROM unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[]) WITH ORDINALITY AS u(s, r, i, t, d, m, n)
       ORDER BY n`,
      [streams, revs, ids, types, data, metadata],
    );
  }
  await pool.query(
    `INSERT INTO eventstore.streams (stream_id, revision) SELECT * FROM unnest($1::text[], $2::bigint[])`,
    [[...revisions.keys()], [...revisions.values()].map((count) => count - 1)],
  );
}

async function main(): Promise<void> {
  const config = loadConfig();
  const adminUrl = new URL(config.DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const name = `bank_bench_projector_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  await admin.end();
  const url = new URL(config.DATABASE_URL);
  url.pathname = `/${name}`;
  const pool = createPool(url.toString(), 10);
  const store = createPostgresEventStore({ pool, pollIntervalMs: 250 });
  try {
    await ensureEventStoreSchema(pool);
    console.log(`bench database ${name}`);

    let started = performance.now();
    const workload = generateWorkload({ events: EVENTS, seed: 2025 });
    console.log(`generated ${workload.length} events in ${Math.round(performance.now() - started)} ms`);
    started = performance.now();
    await bulkLoad(pool, workload);
    console.log(`bulk-loaded in ${Math.round(performance.now() - started)} ms`);

    const rebuild = await rebuildProjections({ pool, store, onProgress: ({ events }) => events % 20_000 === 0 && console.log(`  rebuild: ${events} events`) });
    console.log(
      `REBUILD: ${rebuild.events} events in ${(rebuild.durationMs / 1000).toFixed(1)} s = ${rebuild.eventsPerSecond} events/s ` +
        `(live projector paused ${rebuild.swapMs.toFixed(0)} ms for the tail and swap)`,
    );
    const verify = await verifyReadModels({ pool, store });
    console.log(`verify: ok=${verify.ok} accounts=${verify.checked} mismatches=${verify.mismatches.length}`);

    const projector = startProjector({ pool, store });
    await projector.caughtUp;
    const reader = createProjectionReader(pool);
    const live = generateWorkload({ events: RATE * SECONDS, seed: 99, namespace: 2 });
    const latencies: number[] = [];
    const tails = new Map<string, Promise<void>>();
    const pending: Promise<void>[] = [];
    let timeouts = 0;
    const loadStart = performance.now();
    for (let i = 0; i < live.length; i += 1) {
      const due = loadStart + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const item = live[i]!;
      const task = (tails.get(item.stream) ?? Promise.resolve()).then(async () => {
        const t0 = performance.now();
        const { position } = await store.append(
          item.stream,
          [{ id: randomUUID(), type: item.event.type, data: item.event.data as Record<string, unknown>, metadata: { schemaVersion: 1, ...item.metadata } }],
          'any',
        );
        if (await reader.waitForPosition(position as Position, 10_000)) latencies.push(performance.now() - t0);
        else timeouts += 1;
      });
      tails.set(item.stream, task);
      pending.push(task);
    }
    await Promise.all(pending);
    const seconds = (performance.now() - loadStart) / 1000;
    latencies.sort((a, b) => a - b);
    const f = (ms: number) => `${ms.toFixed(1)} ms`;
    console.log(
      `LIVE LAG (append start → applied) at ${(live.length / seconds).toFixed(0)} events/s for ${seconds.toFixed(1)} s, ${latencies.length} events: ` +
        `p50 ${f(percentile(latencies, 50))}, p90 ${f(percentile(latencies, 90))}, p99 ${f(percentile(latencies, 99))}, max ${f(latencies.at(-1) ?? NaN)}, timeouts ${timeouts}`,
    );
    await reader.close();
    await projector.stop();
  } finally {
    await store.close();
    await pool.end();
    if (!process.env.BENCH_KEEP) {
      const cleanup = new pg.Client({ connectionString: adminUrl.toString() });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      await cleanup.end();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import { createPool, quoteIdent } from '@bank/platform';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { StreamEvent } from '../src/testing/recordedEvents';

/** A fresh database on the server of `databaseUrl`, dropped by `drop()` (unless `keep`). */
export async function createBenchDatabase(databaseUrl: string, label: string): Promise<{ name: string; url: string; pool: pg.Pool; drop(keep: boolean): Promise<void> }> {
  const adminUrl = new URL(databaseUrl);
  adminUrl.pathname = '/postgres';
  const name = `bank_bench_${label}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const pool = createPool(url.toString(), 20);
  return {
    name,
    url: url.toString(),
    pool,
    async drop(keep) {
      await pool.end();
      if (keep) return;
      const cleanup = new pg.Client({ connectionString: adminUrl.toString() });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * Writes a generated history straight into the PostgreSQL event store's tables, thousands of rows per INSERT: a
 * bench-only fast path to a log of hundreds of thousands of events (the live traffic goes through append).
 */
export async function loadHistory(pool: pg.Pool, events: readonly StreamEvent[], chunk = 5_000): Promise<void> {
  const revisions = new Map<string, number>();
  for (let start = 0; start < events.length; start += chunk) {
    const streams: string[] = [];
    const revs: number[] = [];
    const ids: string[] = [];
    const types: string[] = [];
    const data: string[] = [];
    const metadata: string[] = [];
    for (const item of events.slice(start, start + chunk)) {
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
  await pool.query(`INSERT INTO eventstore.streams (stream_id, revision) SELECT * FROM unnest($1::text[], $2::bigint[])`, [
    [...revisions.keys()],
    [...revisions.values()].map((count) => count - 1),
  ]);
  await pool.query('ANALYZE eventstore.events');
}

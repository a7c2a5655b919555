import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEventStoreSchema } from './ensureEventStoreSchema';

let database: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase('eventstore_plans');
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  await ensureEventStoreSchema(pool, 'es_plans');
  await pool.end();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await database?.drop();
});

/** One append of one new event to a stream of its own, as the adapter sends it. */
const append = (stream: string) =>
  client.query('SELECT * FROM es_plans.append_batch($1::jsonb)', [
    JSON.stringify([{ stream, expected: 'any', events: [{ id: randomUUID(), type: 'Counted', data: { n: 1 }, metadata: {} }] }]),
  ]);

describe('the append function', () => {
  // auto_explain shows the plan each statement ran with: a generic plan names its parameters ($n), a plan made for
  // one call writes that call's values in. Its log lines come back to this connection as notices.
  it('runs its idempotency check on a plan made once for the connection, not planned again on every call', async () => {
    const plans: string[] = [];
    client.on('notice', (notice) => {
      if (notice.message?.includes('count(*)') || notice.message?.includes('event_id')) plans.push(notice.message);
    });
    await client.query("LOAD 'auto_explain'");
    await client.query("SET auto_explain.log_min_duration = 0; SET auto_explain.sample_rate = 1; SET auto_explain.log_nested_statements = on; SET client_min_messages = log");
    const prefix = `plans-${randomUUID()}`;
    for (let i = 0; i < 8; i += 1) await append(`${prefix}-${i}`);
    await client.query('SET client_min_messages = notice; SET auto_explain.log_min_duration = -1');

    const checks = plans.filter((plan) => /SELECT count\(\*\)/.test(plan) && /unnest\(v_ids\)/.test(plan));
    expect(checks).toHaveLength(8);
    // Every call's check, the first included, is the generic plan: the stream is a parameter, not the call's name, and
    // the events' unique key is probed by both its columns, one probe per id.
    for (const plan of checks) {
      expect(plan).toMatch(/Index Cond: \(\(stream_id = \$\d+\) AND \(event_id = wanted\.id\)\)/);
      expect(plan).not.toContain(prefix);
      expect(plan).not.toContain('Rows Removed by Filter');
    }
  });

  it("reads as many of the events table's rows to append to a stream of 3,000 events as to a stream of one", async () => {
    const stream = `long-${randomUUID()}`;
    const events = (n: number) => Array.from({ length: n }, (_, i) => ({ id: randomUUID(), type: 'Counted', data: { n: i }, metadata: {} }));
    for (let i = 0; i < 3; i += 1) {
      await client.query('SELECT * FROM es_plans.append_batch($1::jsonb)', [JSON.stringify([{ stream, expected: 'any', events: events(1_000) }])]);
    }
    await append(`short-${randomUUID()}`);
    // The rows the events table gives up to one more append (and to its retry), counted by the server for this transaction.
    const rowsRead = async (target: string, appended: unknown[]) => {
      await client.query('BEGIN');
      try {
        const body = JSON.stringify([{ stream: target, expected: 'any', events: appended }]);
        await client.query('SELECT * FROM es_plans.append_batch($1::jsonb)', [body]);
        const [retry] = (await client.query<{ result_kind: string }>('SELECT * FROM es_plans.append_batch($1::jsonb)', [body])).rows;
        expect(retry?.result_kind).toBe('duplicate');
        const { rows } = await client.query<{ n: string }>(
          "SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text AS n FROM pg_stat_xact_user_tables WHERE schemaname = 'es_plans' AND relname = 'events'",
        );
        return Number(rows[0]?.n ?? 0);
      } finally {
        await client.query('ROLLBACK');
      }
    };
    const long = await rowsRead(stream, events(2));
    const short = await rowsRead(`short-${randomUUID()}`, events(2));
    expect(long).toBeLessThanOrEqual(short + 2);
    expect(long).toBeLessThan(20);
  });
});

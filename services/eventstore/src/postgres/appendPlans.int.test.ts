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
    await client.query("SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on; SET client_min_messages = log");
    const prefix = `plans-${randomUUID()}`;
    for (let i = 0; i < 8; i += 1) await append(`${prefix}-${i}`);
    await client.query('SET client_min_messages = notice; SET auto_explain.log_min_duration = -1');

    const checks = plans.filter((plan) => /event_id = ANY/.test(plan));
    expect(checks).toHaveLength(8);
    // Every call's check, the first included, is the generic plan: the ids are a parameter, not the call's uuids.
    for (const plan of checks) {
      expect(plan).toMatch(/event_id = ANY \(\$\d+\)/);
      expect(plan).not.toMatch(/'\{[0-9a-f-]{36}\}'/);
    }
  });
});

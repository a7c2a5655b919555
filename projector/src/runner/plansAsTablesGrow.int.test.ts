import type { RecordedEvent } from '@bank/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedStatementsOf } from '../changes/preparedStatements';
import { migrateReadModels } from '../schema/migrateReadModels';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { mainBatchTarget } from '../testing/mainBatchTarget';
import { generateWorkload } from '../testing/randomWorkload';
import { toRecordedEvents } from '../testing/recordedEvents';
import { applyBatch } from './applyBatch';

// The projector's statements run on generic plans made once per connection (preparedStatements.ts). A plan made while
// a table is small reads it whole (a scan, then a hash join), which is cheaper than probing its key at that size; kept
// while the table grows, it reads every row of the table on every batch. The plans are made again as the log grows, so
// a new bank's tables, filled from empty, are soon probed by key. This file runs well within PLAN_LIFETIME_MS: only
// the growth can make the plans again here.

let db: ProjectorTestDatabase;
const target = mainBatchTarget();

beforeAll(async () => {
  db = await createProjectorTestDatabase('plans_growth');
  await migrateReadModels(db.pool, 'rm');
});
afterAll(async () => {
  await db.close();
});

/** The batches of `events`, `size` events each. */
function batches(events: readonly RecordedEvent[], size: number): RecordedEvent[][] {
  const out: RecordedEvent[][] = [];
  for (let i = 0; i < events.length; i += size) out.push(events.slice(i, i + size));
  return out;
}

describe('the projector’s plans as its tables grow from empty', () => {
  it('probes rm.transactions by key once the table has grown, instead of reading it whole on every batch', async () => {
    const client = await db.pool.connect();
    // auto_explain shows the plan each statement of a batch ran with; its lines come back to this connection as
    // notices. Per batch: the rows rm.transactions had before it, and whether a plan of the batch read the table whole.
    let scanned: boolean;
    const onNotice = (notice: { message?: string }) => {
      if (/Seq Scan on transactions\b/.test(notice.message ?? '')) scanned = true;
    };
    const perBatch: Array<{ rows: number; scanned: boolean }> = [];
    try {
      await preparedStatementsOf(client).discard(client);
      client.on('notice', onNotice);
      await client.query("LOAD 'auto_explain'");
      await client.query('SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on; SET client_min_messages = log');
      const events = toRecordedEvents(generateWorkload({ events: 12_000, seed: 11 }));
      let checkpoint: string | null = null;
      for (const batch of batches(events, 40)) {
        const { rows } = await client.query<{ rows: string }>('SELECT count(*)::text AS rows FROM rm.transactions');
        scanned = false;
        checkpoint = (await applyBatch(client, target, batch, checkpoint)).position;
        perBatch.push({ rows: Number(rows[0]!.rows), scanned });
      }
    } finally {
      await client.query('SET client_min_messages = notice; SET auto_explain.log_min_duration = -1').catch(() => undefined);
      client.off('notice', onNotice);
      client.release();
    }
    const final = perBatch.at(-1)!.rows;
    // The workload fills the table well past the size at which a plan probes the key.
    expect(final).toBeGreaterThan(3_000);
    // It was read whole while it was small (the plans made for it then were right to), so the check is not vacuous…
    expect(perBatch.some((batch) => batch.scanned)).toBe(true);
    // …and not once it held half its final rows.
    const late = perBatch.filter((batch) => batch.rows >= final / 2);
    expect(late.length).toBeGreaterThan(10);
    expect(late.filter((batch) => batch.scanned).map((batch) => batch.rows)).toEqual([]);
  }, 120_000);
});

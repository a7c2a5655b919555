import { formatPosition, type Position } from '@bank/eventstore';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_SQL, lockArgs } from '../locks/advisoryLocks';
import { startProjector, type ProjectorHandle } from '../runner/projectorRunner';
import { appendConcurrently } from '../testing/appendConcurrently';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { generateWorkload } from '../testing/randomWorkload';
import { readModelSnapshot } from '../testing/readModelSnapshot';
import { verifyReadModels } from '../verify/verifyReadModels';
import { RebuildAlreadyRunningError, rebuildProjections } from './rebuildProjections';

let db: ProjectorTestDatabase;
const running: ProjectorHandle[] = [];

function start(name = 'main', schema = 'rm'): ProjectorHandle {
  const handle = startProjector({ pool: db.pool, store: db.store, name, schema, leaderRetryMs: 50 });
  running.push(handle);
  return handle;
}

async function checkpointOf(schema = 'rm', name = 'main'): Promise<string | null> {
  const { rows } = await db.pool.query(`SELECT position FROM ${schema}.checkpoint WHERE name = $1`, [name]);
  return rows[0]?.position ?? null;
}

/** Waits until the read models of `schema` have applied `position` (the greatest position appended). */
async function untilApplied(position: Position | undefined, schema = 'rm', name = 'main'): Promise<void> {
  const head = formatPosition(position!);
  const deadline = Date.now() + 30_000;
  while (((await checkpointOf(schema, name)) ?? '') < head) {
    if (Date.now() > deadline) throw new Error(`${schema} did not reach ${head}: ${JSON.stringify(running.map((r) => r.status()))}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Runs read queries like the API's against rm.* until stopped; counts queries and errors. */
function queryLoop(): { stop(): Promise<{ queries: number; errors: unknown[] }> } {
  let stopped = false;
  let queries = 0;
  const errors: unknown[] = [];
  const statements = [
    `SELECT u.id, u.email, a.savings_cents, a.checking_cents FROM rm.users u LEFT JOIN rm.accounts a ON a.user_id = u.id
      WHERE NOT u.is_closed ORDER BY u.created_at DESC LIMIT 20`,
    `SELECT t.* FROM rm.transactions t WHERE t.user_id = (SELECT id FROM rm.users ORDER BY id LIMIT 1) ORDER BY date DESC, id DESC LIMIT 5`,
    `SELECT count(*) FROM rm.transfers WHERE status = 'settled'`,
    `SELECT * FROM rm.staff_audit_log ORDER BY at DESC, position DESC LIMIT 10`,
    `SELECT position FROM rm.checkpoint WHERE name = 'main'`,
  ];
  const workers = [0, 1, 2].map(async (worker) => {
    while (!stopped) {
      try {
        await db.pool.query(statements[(queries + worker) % statements.length]!);
        queries += 1;
      } catch (error) {
        errors.push(error);
      }
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(workers);
      return { queries, errors };
    },
  };
}

beforeAll(async () => {
  db = await createProjectorTestDatabase('projector_rebuild');
});
afterAll(async () => {
  await db.close();
});
beforeEach(async () => {
  await db.pool.query('DROP SCHEMA IF EXISTS rm CASCADE; DROP SCHEMA IF EXISTS rm_ref CASCADE');
  await db.pool.query('TRUNCATE eventstore.events, eventstore.streams');
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((handle) => handle.stop()));
});

describe('rebuildProjections', () => {
  it('after a random workload of 10,000 events builds read models equal to the live-built ones, table by table, while queries never fail', async () => {
    const live = start();
    await live.ready;
    const appended = await appendConcurrently(db.store, generateWorkload({ events: 10_000, seed: 7 }));
    await untilApplied(appended);
    const liveBuilt = await readModelSnapshot(db.pool);
    expect(liveBuilt.transactions!.length).toBeGreaterThan(2_000);
    expect((await verifyReadModels({ pool: db.pool, store: db.store })).mismatches).toEqual([]);

    const loop = queryLoop();
    const result = await rebuildProjections({ pool: db.pool, store: db.store, batchSize: 1000 });
    const { queries, errors } = await loop.stop();

    expect(errors).toEqual([]);
    expect(queries).toBeGreaterThan(10);
    expect(result.events).toBeGreaterThanOrEqual(10_000);
    expect(result.position).toBe(formatPosition(appended!));
    const rebuilt = await readModelSnapshot(db.pool);
    for (const table of Object.keys(liveBuilt)) expect(rebuilt[table], table).toEqual(liveBuilt[table]);
    const schemas = await db.pool.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rm%' ORDER BY 1`);
    expect(schemas.rows).toEqual([{ nspname: 'rm' }]);
    const verified = await verifyReadModels({ pool: db.pool, store: db.store });
    expect(verified).toMatchObject({ ok: true, mismatches: [] });
    expect(verified.checked).toBeGreaterThan(50);
  });

  it('on a log being written to ends caught up, and the live projector carries on from the swapped-in checkpoint', async () => {
    const workload = generateWorkload({ events: 3_000, seed: 11 });
    const live = start();
    const reference = start('reference', 'rm_ref');
    await Promise.all([live.ready, reference.ready]);
    await appendConcurrently(db.store, workload.slice(0, 1_500));

    let appendedBeforeSwap: Position | undefined;
    const writer = appendConcurrently(db.store, workload.slice(1_500, 2_400), { concurrency: 2, maxPerAppend: 5 });
    const result = await rebuildProjections({
      pool: db.pool,
      store: db.store,
      batchSize: 200,
      beforeSwap: async () => {
        await writer;
        // These are certainly after the catch-up: the rebuild applies them under the apply lock.
        appendedBeforeSwap = await appendConcurrently(db.store, workload.slice(2_400, 2_500));
      },
    });
    expect(result.tailEvents).toBeGreaterThan(0);
    expect(result.position! >= formatPosition(appendedBeforeSwap!)).toBe(true);

    const last = await appendConcurrently(db.store, workload.slice(2_500));
    await untilApplied(last, 'rm', 'main');
    await untilApplied(last, 'rm_ref', 'reference');
    expect(await readModelSnapshot(db.pool, 'rm')).toEqual(await readModelSnapshot(db.pool, 'rm_ref'));
    expect(live.status().state).toBe('leader');
    const resyncs = (await live.metrics.registry.getMetricsAsJSON()).find((metric) => metric.name === 'bank_projector_checkpoint_resyncs_total');
    expect(resyncs?.values[0]?.value ?? 0).toBeGreaterThanOrEqual(0);
  });

  it('builds the read models from nothing when there are none yet', async () => {
    const appended = await appendConcurrently(db.store, generateWorkload({ events: 300, seed: 3 }));
    const result = await rebuildProjections({ pool: db.pool, store: db.store });
    expect(result.events).toBe(Number((await db.pool.query('SELECT count(*) FROM eventstore.events')).rows[0].count));
    expect(await checkpointOf()).toBe(formatPosition(appended!));
  });

  it('refuses to run beside another rebuild and cleans up what a crashed one left', async () => {
    await db.pool.query('CREATE SCHEMA rm_build_1; CREATE SCHEMA rm_old_1');
    const holder = await db.pool.connect();
    try {
      await holder.query(LOCK_SQL.tryLock, lockArgs('rebuild', 'main'));
      await expect(rebuildProjections({ pool: db.pool, store: db.store })).rejects.toBeInstanceOf(RebuildAlreadyRunningError);
      await holder.query(LOCK_SQL.unlock, lockArgs('rebuild', 'main'));
    } finally {
      holder.release();
    }
    await rebuildProjections({ pool: db.pool, store: db.store });
    const schemas = await db.pool.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rm%' ORDER BY 1`);
    expect(schemas.rows).toEqual([{ nspname: 'rm' }]);
  });
});

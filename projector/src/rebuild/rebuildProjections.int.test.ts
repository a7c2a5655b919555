import { bankEvent } from '@bank/domain';
import { createPostgresEventStore, formatPosition, type Position } from '@bank/eventstore';
import { createPool } from '@bank/platform';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_SQL, lockArgs } from '../locks/advisoryLocks';
import { EventApplyError } from '../runner/eventDispatcher';
import { defaultProjections } from '../projections/defaultProjections';
import { startProjector, type ProjectorHandle } from '../runner/projectorRunner';
import { migrateReadModels } from '../schema/migrateReadModels';
import { appendHistory } from '../testing/appendHistory';
import { appendConcurrently } from '../testing/appendConcurrently';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { generateWorkload } from '../testing/randomWorkload';
import { readModelSnapshot } from '../testing/readModelSnapshot';
import { verifyReadModels } from '../verify/verifyReadModels';
import { finishBulkLoad, INDEXES_KEPT_FOR_THE_LOAD, prepareBulkLoad } from './bulkSchema';
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
    if (Date.now() > deadline) throw new Error(`${schema} did not reach ${head}: ${running.map((r) => `${r.status().state} ${r.status().error?.message ?? ''}`).join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Waits until readers of the log see `position` (the last event appended). A reader sees an event only once every
 * transaction older than its own has ended on the server, other test files' included (the event store's visibility
 * fence, docs/eventstore.md): a rebuild started before that would end at the event before, as it should.
 */
async function untilReadable(position: Position | undefined): Promise<void> {
  const head = formatPosition(position!);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const seen = await db.store.headPosition();
    if (seen && formatPosition(seen) >= head) return;
    if (Date.now() > deadline) throw new Error(`the log's readers did not reach ${head}`);
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
        // These are certainly after the catch-up: the rebuild applies them under the apply lock. Readers see them
        // once no older transaction is open on the server (the log's visibility fence), which another database's
        // work may hold a moment: wait for that, so that the swap's tail is sure to find them.
        appendedBeforeSwap = await appendConcurrently(db.store, workload.slice(2_400, 2_500));
        const deadline = Date.now() + 30_000;
        for (;;) {
          const head = await db.store.headPosition();
          if (head && formatPosition(head) >= formatPosition(appendedBeforeSwap!)) break;
          if (Date.now() > deadline) throw new Error('the events appended before the swap never became visible');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
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

  it('on a log that grows with every read, ends its load at the first page short of a batch; the catch-up takes the rest', async () => {
    const workload = generateWorkload({ events: 1_400, seed: 17 });
    await untilReadable(await appendConcurrently(db.store, workload.slice(0, 1_000)));
    // A busy bank, made certain: while the load runs, each read of the log appends 7 more events before it answers,
    // so the load's next read always finds some (at most 50 times).
    const more = workload.slice(1_000);
    let phase = 'load';
    let loadReads = 0;
    let grew = 0;
    const store = Object.create(db.store) as typeof db.store;
    store.readAll = async (options) => {
      const page = await db.store.readAll(options);
      if (phase === 'load') {
        loadReads += 1;
        if (grew < 50 && more.length > 0) {
          grew += 1;
          await untilReadable(await appendConcurrently(db.store, more.splice(0, 7)));
        }
      }
      return page;
    };
    const result = await rebuildProjections({ pool: db.pool, store, batchSize: 200, onProgress: (progress) => (phase = progress.phase) });
    // 1,000 events: five full pages, and the sixth short of a batch (what the first reads appended). Read on until an
    // empty read, the load would have read 50 times and more.
    expect(loadReads).toBeLessThanOrEqual(7);
    const head = await db.store.headPosition();
    expect(result.position).toBe(formatPosition(head!));
    expect(await checkpointOf()).toBe(formatPosition(head!));
    expect((await verifyReadModels({ pool: db.pool, store: db.store })).mismatches).toEqual([]);
  });

  it('applies the swap’s tail up to the first page short of a batch, one read; the live projector goes on from there', async () => {
    const workload = generateWorkload({ events: 1_100, seed: 19 });
    const live = start();
    await live.ready;
    await untilReadable(await appendConcurrently(db.store, workload.slice(0, 1_000)));
    // Seven events appended just before the swap, and more while it runs (the live projector paused). On PostgreSQL
    // the store's fence hides the latter from readers once the swap's transaction has written; on EventStoreDB
    // nothing would, and a tail read until a read came back empty would chase a busy bank's appends.
    let swapping = false;
    let tailReads = 0;
    const store = Object.create(db.store) as typeof db.store;
    store.readAll = async (options) => {
      const page = await db.store.readAll(options);
      if (swapping) {
        tailReads += 1;
        await appendConcurrently(db.store, workload.slice(1_007 + 7 * (tailReads - 1), 1_007 + 7 * tailReads));
      }
      return page;
    };
    const beforeSwap = async () => {
      await untilReadable(await appendConcurrently(db.store, workload.slice(1_000, 1_007)));
      swapping = true;
    };
    const result = await rebuildProjections({ pool: db.pool, store, batchSize: 200, beforeSwap });
    swapping = false;
    expect(tailReads).toBe(1);
    expect(result.tailEvents).toBe(7);
    const last = await appendConcurrently(db.store, workload.slice(1_014));
    await untilApplied(last);
    expect((await verifyReadModels({ pool: db.pool, store: db.store })).mismatches).toEqual([]);
  });

  it('builds the read models from nothing when there are none yet', async () => {
    const appended = await appendConcurrently(db.store, generateWorkload({ events: 300, seed: 3 }));
    await untilReadable(appended);
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

  it('builds the same tables with UNLOGGED tables on one connection, and reports its progress phase by phase', async () => {
    const appended = await appendConcurrently(db.store, generateWorkload({ events: 3_000, seed: 21 }));
    const live = start();
    await live.ready;
    await untilApplied(appended);
    const liveBuilt = await readModelSnapshot(db.pool);
    await live.stop();

    const phases: string[] = [];
    let last = 0;
    const result = await rebuildProjections({
      pool: db.pool,
      store: db.store,
      batchSize: 500,
      parallel: 1,
      unlogged: true,
      onProgress: (progress) => {
        if (phases.at(-1) !== progress.phase) phases.push(progress.phase);
        expect(progress.events).toBeGreaterThanOrEqual(last);
        last = progress.events;
      },
    });
    expect(phases).toEqual(['load', 'indexes', 'catch-up', 'swap']);
    expect(last).toBe(result.events);
    // Where the load's time went: the thread's four counters share the load phase (which also holds the schema's
    // migration and preparation) and count no time twice; every group of projections is named once, with the time
    // its writes took.
    const { readMs, foldMs, writeWaitMs, heldMs, groups } = result.loadTime;
    expect(foldMs).toBeGreaterThan(0);
    expect(Math.min(readMs, writeWaitMs, heldMs)).toBeGreaterThanOrEqual(0);
    expect(readMs + foldMs + writeWaitMs + heldMs).toBeLessThanOrEqual(result.phaseMs.load + 4);
    const named = groups.flatMap((group) => group.projections.split('+')).sort();
    expect(named).toEqual(defaultProjections.map((projection) => projection.name).sort());
    expect(groups.every((group) => group.writeMs >= 0)).toBe(true);
    expect(groups.find((group) => group.projections.split('+').includes('transactions'))!.writeMs).toBeGreaterThan(0);
    expect(await readModelSnapshot(db.pool)).toEqual(liveBuilt);
  });

  it('drops the secondary indexes for the load but those its statements probe, and builds them all again', async () => {
    const schema = `rm_bulk_probe_${Date.now()}`;
    await migrateReadModels(db.pool, schema);
    try {
      const secondary = async () =>
        (
          await db.pool.query<{ indexname: string }>(
            `SELECT i.indexname FROM pg_indexes i WHERE i.schemaname = $1
                AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.connamespace = $1::text::regnamespace AND k.conname = i.indexname)
              ORDER BY 1`,
            [schema],
          )
        ).rows.map((row) => row.indexname);
      const migrated = await secondary();
      const tables = (await db.pool.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1', [schema])).rows.map((row) => row.tablename);
      const state = await prepareBulkLoad(db.pool, schema, tables, false);
      expect(await secondary()).toEqual([...INDEXES_KEPT_FOR_THE_LOAD].sort());
      expect(migrated).toEqual(expect.arrayContaining([...INDEXES_KEPT_FOR_THE_LOAD]));
      expect(state.indexes).toHaveLength(migrated.length - INDEXES_KEPT_FOR_THE_LOAD.size);
      await finishBulkLoad(db.pool, state);
      expect(await secondary()).toEqual(migrated);
    } finally {
      await db.pool.query(`DROP SCHEMA "${schema}" CASCADE`);
    }
  });

  it('in an UNLOGGED build keeps logged the tables the load only appends to, and makes every table logged at the end', async () => {
    const schema = `rm_bulk_logged_${Date.now()}`;
    await migrateReadModels(db.pool, schema);
    try {
      const persistence = async () =>
        Object.fromEntries(
          (await db.pool.query<{ relname: string; relpersistence: string }>(`SELECT relname, relpersistence FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind = 'r'`, [schema])).rows.map(
            (row) => [row.relname, row.relpersistence],
          ),
        );
      const tables = Object.keys(await persistence());
      const appendOnly = ['journal_lines', 'staff_audit_log', 'transactions'];
      const state = await prepareBulkLoad(db.pool, schema, tables, true, ['staff_audit_log', 'transactions'], appendOnly);
      const during = await persistence();
      for (const table of tables) expect(during[table], table).toBe(appendOnly.includes(table) ? 'p' : 'u');
      expect(state.unloggedTables).toHaveLength(tables.length - appendOnly.length);
      await finishBulkLoad(db.pool, state);
      expect(Object.values(await persistence()).every((value) => value === 'p')).toBe(true);
    } finally {
      await db.pool.query(`DROP SCHEMA "${schema}" CASCADE`);
    }
  });

  it.each([
    ['logged throughout, its indexes built concurrently', false],
    ['built UNLOGGED, its tables made logged and indexed on parallel connections', true],
  ])('swaps in logged tables with every index and constraint of the migrations (%s)', async (_, unlogged) => {
    await appendConcurrently(db.store, generateWorkload({ events: 500, seed: 23 }));
    await rebuildProjections({ pool: db.pool, store: db.store, batchSize: 100, unlogged });
    await migrateReadModels(db.pool, 'rm_ref');
    const shape = async (schema: string) => {
      const tables = await db.pool.query(`SELECT relname, relkind, relpersistence FROM pg_class WHERE relnamespace = $1::regnamespace ORDER BY relname`, [schema]);
      const indexes = await db.pool.query(`SELECT replace(indexdef, $1, 'S') AS def FROM pg_indexes WHERE schemaname = $2 ORDER BY 1`, [`${schema}.`, schema]);
      const constraints = await db.pool.query(
        `SELECT r.relname, c.conname, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
          WHERE c.connamespace = $1::regnamespace ORDER BY 1, 2`,
        [schema],
      );
      return { tables: tables.rows, indexes: indexes.rows, constraints: constraints.rows };
    };
    const rebuilt = await shape('rm');
    expect(rebuilt.tables.every((table) => table.relpersistence === 'p')).toBe(true);
    expect(rebuilt).toEqual(await shape('rm_ref'));
  });

  it('takes a row the log inserts twice (COPY refuses it) through upserts, as the live projector does', async () => {
    const contactId = '00000000-0000-4000-8000-00000000c0de';
    const message = { stream: `contact-${contactId}`, event: bankEvent('ContactMessageReceived', { contactId, name: 'Eve', email: 'eve@example.com', phone: '', subject: 'Hi', message: 'Hello', receivedAt: '2025-06-01T10:00:00.000Z' }) };
    const history = generateWorkload({ events: 1_000, seed: 29 });
    const last = await appendHistory(db.store, [...history.slice(0, 400), message, ...history.slice(400, 700), message, ...history.slice(700)]);
    const reference = start('reference', 'rm_ref');
    await reference.ready;
    await untilApplied(last, 'rm_ref', 'reference');
    const messages: string[] = [];
    const logger = { info: (_: object, message: string) => messages.push(message), warn: () => undefined, error: () => undefined };
    // Batches of 300: the second message is in another batch than the first, whose row the COPY then meets.
    await rebuildProjections({ pool: db.pool, store: db.store, batchSize: 300, logger });
    expect(messages).toContain('rebuild: a batch inserts rows that exist already; writing it with upserts');
    expect(await readModelSnapshot(db.pool, 'rm')).toEqual(await readModelSnapshot(db.pool, 'rm_ref'));
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM rm.contacts WHERE id = $1', [contactId]);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('stops on an event it cannot apply, naming it, and leaves the live read models as they were', async () => {
    const history = generateWorkload({ events: 1_000, seed: 31 });
    await appendHistory(db.store, history);
    await rebuildProjections({ pool: db.pool, store: db.store });
    const before = await readModelSnapshot(db.pool);
    const broken = { stream: 'transfer-00000000-0000-4000-8000-00000000dead', event: { type: 'TransferSent', data: { transferId: '00000000-0000-4000-8000-00000000dead', occurredAt: '2025-06-01T10:00:00.000Z' } } };
    await untilReadable(await appendHistory(db.store, [broken]));
    const failed = await rebuildProjections({ pool: db.pool, store: db.store, batchSize: 300 }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(EventApplyError);
    expect((failed as EventApplyError).message).toMatch(/TransferSent .* refers to "rm_build_\d+"\.transfers row 00000000-0000-4000-8000-00000000dead, which does not exist/);
    expect(await readModelSnapshot(db.pool)).toEqual(before);
    const schemas = await db.pool.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rm%' ORDER BY 1`);
    expect(schemas.rows).toEqual([{ nspname: 'rm' }]);
  });

  it('holds the balances over the load and writes each row once; past the held-row limit, writes them and updates them batch by batch', async () => {
    const appended = await appendConcurrently(db.store, generateWorkload({ events: 4_000, seed: 41 }));
    const live = start();
    await live.ready;
    await untilApplied(appended);
    const liveBuilt = await readModelSnapshot(db.pool);
    expect(liveBuilt.accounts!.length).toBeGreaterThan(20);
    for (const heldRowLimit of [undefined, 10]) {
      const held: { rows: number; events: number }[] = [];
      let events = 0;
      const logger = {
        info: (details: object, message: string) => {
          if (message.includes('held over the load')) held.push({ rows: (details as { rows: number }).rows, events });
        },
        warn: () => undefined,
        error: () => undefined,
      };
      const result = await rebuildProjections({
        pool: db.pool,
        store: db.store,
        batchSize: 250,
        logger,
        onProgress: (progress) => (events = progress.events),
        ...(heldRowLimit ? { heldRowLimit } : {}),
      });
      expect(result.position).toBe(formatPosition(appended!));
      // Written once: every account at the end of the load, or the first 11 or more in one of its first batches.
      expect(held).toHaveLength(1);
      if (heldRowLimit) expect(held[0]!.rows).toBeGreaterThan(heldRowLimit);
      else expect(held[0]).toEqual({ rows: liveBuilt.accounts!.length, events: result.events });
      if (heldRowLimit) expect(held[0]!.events).toBeLessThan(1_000);
      const rebuilt = await readModelSnapshot(db.pool);
      for (const table of Object.keys(liveBuilt)) expect(rebuilt[table], `${table}, limit ${heldRowLimit}`).toEqual(liveBuilt[table]);
    }
  });

  it('names the event whose balance update meets no account, held over the load or not', async () => {
    await appendHistory(db.store, generateWorkload({ events: 600, seed: 43 }));
    const stranger = '00000000-0000-4000-8000-0000000000ab';
    await appendHistory(db.store, [
      {
        stream: `account-${stranger}`,
        event: bankEvent('AccountCredited', {
          transactionId: '00000000-0000-4000-8000-0000000000ac',
          account: 'savings',
          amountCents: 100,
          direction: 'credit',
          description: 'Deposit',
          status: 'completed',
          occurredAt: '2025-06-01T10:00:00.000Z',
          balanceAfterCents: 100,
        }),
      },
    ]);
    await untilReadable(await appendHistory(db.store, generateWorkload({ events: 300, seed: 44 })));
    for (const heldRowLimit of [undefined, 1]) {
      const failed = await rebuildProjections({ pool: db.pool, store: db.store, batchSize: 100, ...(heldRowLimit ? { heldRowLimit } : {}) }).catch((error: unknown) => error);
      expect(failed, `limit ${heldRowLimit}`).toBeInstanceOf(EventApplyError);
      expect((failed as EventApplyError).message).toMatch(new RegExp(`AccountCredited of account-${stranger} .* refers to "rm_build_\\d+"\\.accounts row ${stranger}, which does not exist`));
    }
  });

  it('loads on as many connections as a small pool leaves (a pool of 2: one lane and one for reading)', async () => {
    const appended = await appendConcurrently(db.store, generateWorkload({ events: 1_500, seed: 37 }));
    // Another test file's open transaction can hide the new events from every reader for a moment (the fence).
    await untilReadable(appended);
    const small = createPool(db.url, 2);
    const store = createPostgresEventStore({ pool: small });
    try {
      const result = await rebuildProjections({ pool: small, store, batchSize: 300, parallel: 3 });
      expect(result.position).toBe(formatPosition(appended!));
    } finally {
      await store.close();
      await small.end();
    }
  });
});

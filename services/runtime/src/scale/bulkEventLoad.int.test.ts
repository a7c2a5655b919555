import { createAuditVerifier } from '@bank/audit';
import { createCommandHandler } from '@bank/commands';
import { accountDecider, streams } from '@bank/domain';
import { createPostgresEventStore, ensureEventStoreSchema, EVENTS_INDEXES, EVENTS_UNIQUE_KEYS, type EventStore } from '@bank/eventstore';
import { createPool, parseKeyringText } from '@bank/platform';
import { migrateReadModels, verifyReadModels } from '@bank/projector';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkLoadRefusedError, copyField, openBulkEventLoad } from './bulkEventLoad';
import { loadGeneratedBank, type GeneratedBankLoad } from './loadGeneratedBank';
import { seedBank } from './seedBank';
import { seedBankInWorkers } from './seedWorkers';
import { seedUserId } from './seedTransferRequest';

/**
 * The bulk path (COPY into an empty store) against the appends path: the same bank from the same seed, event for
 * event; the load verifies (chains, signed checkpoints, read models against the replay), the store's indexes are
 * back, a command appended afterwards continues the chain, and a second bulk load into the loaded store is refused.
 */
const options = { customers: 30, transactions: 420, seed: 19 };
const HASH = '$2a$10$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQ';
const chainKeys = parseKeyringText('chain', 'CHAIN_KEYS', `k1:${Buffer.alloc(32, 5).toString('base64')}`);
const checkpointKeys = parseKeyringText('checkpoint', 'CHECKPOINT_KEYS', `c1:${Buffer.alloc(32, 6).toString('base64')}`);
const checkpointDir = mkdtempSync(path.join(tmpdir(), 'bulk-checkpoints-'));

interface Side {
  database: TestDatabase;
  pool: pg.Pool;
  store: EventStore;
}
let bulk: Side;
let appended: Side;
let threaded: Side;
let loaded: GeneratedBankLoad;

async function side(name: string): Promise<Side> {
  const database = await createTestDatabase(name);
  const pool = createPool(database.url, 6);
  await ensureEventStoreSchema(pool);
  await migrateReadModels(pool);
  return { database, pool, store: createPostgresEventStore({ pool }) };
}

const verify = (s: Side) => createAuditVerifier({ config: { EVENTSTORE_URL: undefined }, pool: s.pool, store: s.store, chainKeys, checkpoints: { dir: checkpointDir, keys: checkpointKeys } })();

beforeAll(async () => {
  [bulk, appended, threaded] = await Promise.all([side('bulk_seed'), side('bulk_seed_appends'), side('bulk_seed_threads')]);
  const loadThreaded = async () => {
    // Generated on two threads in blocks of 7 customers, loaded in block order.
    const threads = await openBulkEventLoad({ pool: threaded.pool, store: threaded.store, eventsPerTransaction: 200 });
    await seedBankInWorkers({ ...options, store: threaded.store, passwordHash: HASH, chainKeys, workers: 2, blockSize: 7 }, threads);
    await threads.finish();
  };
  [loaded] = await Promise.all([
    // Small transactions, so the load spans several (and several checkpoint records).
    loadGeneratedBank({ ...options, pool: bulk.pool, store: bulk.store, passwordHash: HASH, chainKeys, bulk: true, checkpoints: { dir: checkpointDir, keys: checkpointKeys }, bulkEventsPerTransaction: 200 }),
    seedBank({ ...options, store: appended.store, passwordHash: HASH, chainKeys, chunk: 40 }),
    loadThreaded(),
  ]);
  // Three generated banks with their 396 days of history at once: about 18 s on a quiet machine, over 60 s (the
  // project's default hook timeout) with CI's two lanes on two cores.
}, 240_000);

afterAll(async () => {
  rmSync(checkpointDir, { recursive: true, force: true });
  for (const s of [bulk, appended, threaded]) {
    await s?.store.close();
    await s?.pool.end();
    await s?.database.drop();
  }
});

const rows = async (s: Side, sql: string) => (await s.pool.query(sql)).rows;
const outsideCalendar = (row: { stream_id: string }) => row.stream_id !== streams.businessDays();
/** A row of the businessDays stream without what names log positions: a close's position and journal hash, and the chain over them. */
const withoutPositions = (row: Record<string, unknown> & { stream_id: string; type: string; data: Record<string, unknown>; metadata: Record<string, unknown> }) => {
  if (outsideCalendar(row)) return row;
  const { throughPosition: _through, journalHash: _journal, ...data } = row.data;
  const { hash: _hash, prevHash: _prev, ...metadata } = row.metadata;
  return { ...row, data: row.type === 'BusinessDayClosed' ? data : row.data, metadata };
};

describe('the bulk load of a generated bank', () => {
  it('writes the same events as the appends path: stream by stream, revision by revision, ids, data, metadata and hashes', async () => {
    const events = 'SELECT stream_id, revision::text, event_id, type, data, metadata FROM eventstore.events ORDER BY stream_id, revision';
    const [fromBulk, fromAppends] = await Promise.all([rows(bulk, events), rows(appended, events)]);
    expect(fromBulk.length).toBe(loaded.seeded.events);
    expect(loaded.bulk?.transactions).toBeGreaterThan(2);
    expect(fromBulk.filter(outsideCalendar)).toEqual(fromAppends.filter(outsideCalendar));
    // The business calendar too, but for the log positions its closes name (each database's own transaction ids).
    expect(fromBulk.filter((row) => !outsideCalendar(row)).map(withoutPositions)).toEqual(fromAppends.filter((row) => !outsideCalendar(row)).map(withoutPositions));
    expect(fromBulk.filter((row) => row.type === 'AccountCredited' && row.data.interest).length).toBe(loaded.seeded.interestPayments);
    const heads = 'SELECT stream_id, revision::text FROM eventstore.streams ORDER BY stream_id';
    expect(await rows(bulk, heads)).toEqual(await rows(appended, heads));
  });

  it('writes the same log, position for position, when worker threads generate the customers', async () => {
    const log = 'SELECT global_position::text, stream_id, revision::text, event_id, type, data, metadata FROM eventstore.events ORDER BY global_position';
    const fromThreads = await rows(threaded, log);
    expect(fromThreads.length).toBe(loaded.seeded.events);
    expect(fromThreads.map(withoutPositions)).toEqual((await rows(bulk, log)).map(withoutPositions));
  });

  it('assigns the global positions as the store does: 1, 2, 3 … in each stream’s revision order, the sequence past them', async () => {
    const [positions] = await rows(
      bulk,
      `SELECT count(*)::int AS n, min(global_position)::int AS first, max(global_position)::int AS last,
              (SELECT last_value::int FROM eventstore.events_global_position_seq) AS sequence,
              (SELECT count(*)::int FROM (SELECT revision, row_number() OVER (PARTITION BY stream_id ORDER BY transaction_id, global_position) - 1 AS nth FROM eventstore.events) o WHERE o.revision <> o.nth) AS out_of_order
         FROM eventstore.events`,
    );
    expect(positions).toEqual({ n: loaded.seeded.events, first: 1, last: loaded.seeded.events, sequence: loaded.seeded.events, out_of_order: 0 });
  });

  it('records each event at the history’s instant: never going back in the log, a day’s events before its close, each close at its own instant', async () => {
    const [order] = await rows(
      bulk,
      `SELECT count(*) FILTER (WHERE created < previous)::int AS backwards,
              count(*) FILTER (WHERE created < (metadata->>'occurredAt')::timestamptz - interval '1 second')::int AS before_occurring,
              count(*) FILTER (WHERE type = 'BusinessDayClosed' AND created <> (data->>'closedAt')::timestamptz)::int AS closes_elsewhere,
              count(*) FILTER (WHERE created > now() - interval '1 day')::int AS recorded_at_load,
              min(created) AS first
         FROM (SELECT created, type, data, metadata, lag(created) OVER (ORDER BY transaction_id, global_position) AS previous FROM eventstore.events) e`,
    );
    expect(order).toEqual({ backwards: 0, before_occurring: 0, closes_elsewhere: 0, recorded_at_load: 0, first: new Date('2025-01-01T00:00:00.000Z') });
  });

  it('keeps the books at every close of the history: its journal lines recorded by its instant, none after it', async () => {
    // What a trial balance at an instant relies on (the latest close before it, plus the lines recorded by then).
    const [check] = await rows(
      bulk,
      `SELECT count(*)::int AS days,
              sum((SELECT count(*) FROM rm.journal_lines j WHERE j.position <= d.through_position AND j.recorded_at > d.closed_at))::int AS covered_but_later,
              sum((SELECT count(*) FROM rm.journal_lines j WHERE j.position > d.through_position AND j.recorded_at <= d.closed_at))::int AS recorded_but_left_out,
              sum(d.line_count)::int AS lines
         FROM rm.ledger_days d`,
    );
    expect(check).toEqual({ days: 396, covered_but_later: 0, recorded_but_left_out: 0, lines: Number((await rows(bulk, 'SELECT count(*)::int AS n FROM rm.journal_lines'))[0]!.n) });
  });

  it('builds the secondary indexes again, gives the planner its statistics and marks the schema installed', async () => {
    const names = (await rows(bulk, `SELECT indexname FROM pg_indexes WHERE schemaname = 'eventstore' AND tablename = 'events'`)).map((row) => row.indexname as string);
    for (const index of [...EVENTS_UNIQUE_KEYS, ...EVENTS_INDEXES]) expect(names).toContain(index.name);
    // The BRIN index built after the rows (every range summarized), and the tables analyzed: read by instant, a
    // day's window is planned as one.
    const [summary] = await rows(bulk, `SELECT brin_summarize_new_values('eventstore.events_created_brin') AS unsummarized`);
    expect(summary!.unsummarized).toBe(0);
    const analyzed = await rows(bulk, `SELECT relname FROM pg_stat_user_tables WHERE schemaname = 'eventstore' AND relname IN ('events', 'streams') AND last_analyze IS NOT NULL ORDER BY relname`);
    expect(analyzed.map((row) => row.relname)).toEqual(['events', 'streams']);
    const [comment] = await rows(bulk, `SELECT obj_description(to_regnamespace('eventstore'), 'pg_namespace') AS marker`);
    expect(comment!.marker).toMatch(/^bank event store [0-9a-f]{16}$/);
  });

  it('passes the audit verification: chains, signed checkpoints up to the load, read models equal to the replay', async () => {
    const report = await verify(bulk);
    expect(report.mismatches).toEqual([]);
    expect(report.checked.events).toBe(loaded.seeded.events);
    expect(report.checkpoint?.position).toBe(bulk.store.positionToken(loaded.seeded.position!));
    expect(report.checkpoint?.streams).toBe(loaded.bulk?.streams);
    expect((await verifyReadModels({ pool: bulk.pool, store: bulk.store })).mismatches).toEqual([]);
    expect(Number((await rows(bulk, 'SELECT count(*) AS n FROM rm.transactions'))[0]!.n)).toBe(420 + loaded.seeded.interestPayments);
  });

  it('takes a normal append afterwards: the chain goes on from the loaded head, and a duplicate is still refused', async () => {
    const commands = createCommandHandler({ store: bulk.store, chainKeys });
    const userId = seedUserId(options.seed, 3);
    const streamId = streams.account(userId);
    const before = (await bulk.store.readStream(streamId)).slice(-1);
    const post = {
      decider: accountDecider,
      streamId,
      decide: (state: Parameters<typeof accountDecider.decide>[1]) =>
        accountDecider.decide({ type: 'PostStaffTransaction', transactionId: '6f1c2a52-7a43-4c55-9a57-8f0b3f9b8c01', adminId: loaded.seeded.adminId, account: 'savings', direction: 'credit', amountCents: 1234, date: '2026-11-01', description: 'After the load', now: '2026-11-01T10:00:00.000Z' }, state),
      context: { commandId: 'bulk-test:after-load', metadata: { actorId: loaded.seeded.adminId, actorRole: 'admin' } },
      commandType: 'PostStaffTransaction',
    } as const;
    await commands.execute(post);
    const after = (await bulk.store.readStream(streamId)).at(-1);
    expect(after!.revision).toBe(before[0]!.revision + 1n);
    expect(after!.metadata.prevHash).toBe(before[0]!.metadata.hash);
    await commands.execute(post);
    expect((await bulk.store.readStream(streamId)).at(-1)!.revision).toBe(after!.revision);
    await expect(bulk.pool.query(`INSERT INTO eventstore.events (stream_id, revision, event_id, type, data) VALUES ($1, 0, gen_random_uuid(), 'X', '{}')`, [streamId])).rejects.toThrow(/events_stream_revision_key/);
    const report = await verify(bulk);
    expect(report.mismatches).toEqual([]);
    expect(report.checked.events).toBe(loaded.seeded.events + 1);
  });

  it('is refused on a store that is not empty, and on a checkpoint directory that holds a chain', async () => {
    await expect(openBulkEventLoad({ pool: bulk.pool, store: bulk.store })).rejects.toThrow(BulkLoadRefusedError);
    await expect(openBulkEventLoad({ pool: bulk.pool, store: bulk.store })).rejects.toThrow(/not empty/);
    await expect(openBulkEventLoad({ pool: appended.pool, store: appended.store, checkpoints: { dir: checkpointDir, keys: checkpointKeys } })).rejects.toThrow(/already holds signed checkpoints/);
  });
});

describe('a bulk load cut short', () => {
  it('rolls back its open transaction and builds the indexes again: the store is empty and takes a bulk load again', async () => {
    const s = await side('bulk_seed_abort');
    try {
      const load = await openBulkEventLoad({ pool: s.pool, store: s.store });
      await load.append('probe-1', [{ id: '0b7e4c1a-3f52-4d8e-9a61-2c5d7e8f9a01', type: 'Probe', data: { n: 1 }, metadata: {} }], 0, true);
      await load.abort();
      expect(Number((await rows(s, 'SELECT count(*) AS n FROM eventstore.events'))[0]!.n)).toBe(0);
      const names = (await rows(s, `SELECT indexname FROM pg_indexes WHERE schemaname = 'eventstore' AND tablename = 'events'`)).map((row) => row.indexname as string);
      for (const index of [...EVENTS_UNIQUE_KEYS, ...EVENTS_INDEXES]) expect(names).toContain(index.name);
      const again = await openBulkEventLoad({ pool: s.pool, store: s.store });
      await again.append('probe-1', [{ id: '0b7e4c1a-3f52-4d8e-9a61-2c5d7e8f9a01', type: 'Probe', data: { n: 1 }, metadata: {} }], 0, true);
      const result = await again.finish();
      expect(result.events).toBe(1);
      expect((await s.store.readStream('probe-1')).map((event) => event.data)).toEqual([{ n: 1 }]);
    } finally {
      await s.store.close();
      await s.pool.end();
      await s.database.drop();
    }
  });
});

describe('copyField', () => {
  it('escapes what COPY’s text format reads as special, and nothing else', () => {
    expect(copyField('{"a":"b\\\\nc"}')).toBe('{"a":"b\\\\\\\\nc"}');
    expect(copyField('a\tb\nc\rd')).toBe('a\\tb\\nc\\rd');
    expect(copyField('plain "text" ü')).toBe('plain "text" ü');
  });
});

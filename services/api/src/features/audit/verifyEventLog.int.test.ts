import { randomUUID } from 'node:crypto';
import { toNewEvents } from '@bank/commands';
import { createPostgresEventStore, ensureEventStoreSchema, type EventStore } from '@bank/eventstore';
import { createPool } from '@bank/platform';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listStreams, verifyEventLog } from '@bank/audit';
import { tamperEvents } from '../../testing/tamperEvents';

let database: TestDatabase;
let pool: pg.Pool;
let store: EventStore;

const context = { metadata: { actorId: randomUUID(), actorRole: 'system' as const } };

async function appendChained(stream: string, count: number): Promise<void> {
  const existing = await store.readStream(stream);
  const last = existing.at(-1);
  const events = Array.from({ length: count }, (_, index) => ({ type: 'Noted', data: { index, note: `note ${index}` } }));
  const after = { revision: last?.revision, lastHash: typeof last?.metadata.hash === 'string' ? last.metadata.hash : null };
  const { position } = await store.append(stream, toNewEvents(stream, events, after, context, new Date()), last ? last.revision : 'no_stream');
  // The log shows an event once every older transaction of the server has ended (the xmin fence): on a server
  // shared with other work, wait for it, as the verification reads the global log.
  const before = { commit: position.commit, prepare: position.prepare - 1n };
  await expect.poll(async () => (await store.readAll({ after: before, limit: 1 })).length, { timeout: 20_000, interval: 20 }).toBe(1);
}

beforeAll(async () => {
  database = await createTestDatabase('audit_verify');
  pool = createPool(database.url, 4);
  await ensureEventStoreSchema(pool);
  store = createPostgresEventStore({ pool });
});

afterAll(async () => {
  await store?.close();
  await pool?.end();
  await database?.drop();
});

describe('verifying the hash chains of the whole event log', () => {
  beforeEach(async () => {
    await pool.query('TRUNCATE eventstore.events, eventstore.streams');
  });

  it('lists every stream through readAll paging', async () => {
    for (const name of ['s-a', 's-b', 's-c']) await appendChained(name, 3);
    expect([...(await listStreams(store, 2))].sort()).toEqual(['s-a', 's-b', 's-c']);
  });

  it('finds an intact log intact', async () => {
    await appendChained('s-a', 4);
    await appendChained('s-b', 2);
    await appendChained('s-a', 2);
    const report = await verifyEventLog(store, { pageSize: 3, streamHeads: () => store.streamHeads!() });
    expect(report).toEqual({ streams: 2, events: 8, mismatches: [] });
  });

  it("names the stream and the event whose data was changed in PostgreSQL", async () => {
    await appendChained('s-a', 3);
    await appendChained('s-b', 3);
    await tamperEvents(pool, `UPDATE eventstore.events SET data = jsonb_set(data, '{note}', '"forged"') WHERE stream_id = 's-b' AND revision = 1`);
    const { rows } = await pool.query<{ global_position: string }>(`SELECT global_position FROM eventstore.events WHERE stream_id = 's-b' AND revision = 1`);
    const report = await verifyEventLog(store);
    expect(report.mismatches).toEqual([
      expect.objectContaining({ kind: 'chain', stream: 's-b', revision: 1, position: rows[0]!.global_position, reason: 'hash_mismatch' }),
    ]);
  });

  it('names the stream from which an event was deleted', async () => {
    await appendChained('s-a', 3);
    await appendChained('s-b', 3);
    await tamperEvents(pool, `DELETE FROM eventstore.events WHERE stream_id = 's-a' AND revision = 1`);
    const report = await verifyEventLog(store);
    expect(report.mismatches).toEqual([expect.objectContaining({ kind: 'chain', stream: 's-a', revision: 2, reason: 'revision_gap' })]);
  });

  it("notices a deleted last event through the PostgreSQL store's stream index", async () => {
    await appendChained('s-a', 3);
    await appendChained('s-b', 3);
    await tamperEvents(pool, `DELETE FROM eventstore.events WHERE stream_id = 's-b' AND revision = 2`);
    expect((await verifyEventLog(store)).mismatches).toEqual([]);
    const report = await verifyEventLog(store, { streamHeads: () => store.streamHeads!() });
    expect(report.mismatches).toEqual([expect.objectContaining({ kind: 'stream_head', stream: 's-b', revision: 2, reason: 'tail_missing' })]);
  });

  it('notices a metadata edit (a forged actor) and a re-linked chain', async () => {
    await appendChained('s-a', 2);
    await appendChained('s-b', 2);
    await tamperEvents(pool, `UPDATE eventstore.events SET metadata = jsonb_set(metadata, '{actorId}', to_jsonb(gen_random_uuid()::text)) WHERE stream_id = 's-a' AND revision = 0`);
    await tamperEvents(pool, `UPDATE eventstore.events SET metadata = jsonb_set(metadata, '{prevHash}', '"00"') WHERE stream_id = 's-b' AND revision = 1`);
    const report = await verifyEventLog(store);
    expect(report.mismatches.map((m) => [m.stream, m.revision, m.reason])).toEqual([
      ['s-a', 0, 'hash_mismatch'],
      ['s-b', 1, 'link_mismatch'],
    ]);
  });
});

import { randomUUID } from 'node:crypto';
import { createPool, sleep } from '@bank/platform';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeEventStoreConformance } from '../conformance';
import { collect, newEvent, newEvents, waitUntilVisible } from '../conformance/conformanceHelpers';
import { readEventById, type EventStore, type Position, type StreamAppendOutcome } from '../eventStore';
import { SET_BASED_MIN_APPENDS } from './appendBatchFunction';
import { ensureEventStoreSchema } from './ensureEventStoreSchema';
import { createEventReader } from './eventReader';
import { DEFAULT_SCHEMA, eventStoreSchema } from './eventStoreSchema';
import { LISTENER_APPLICATION_NAME } from './notificationListener';
import { createPostgresEventStore, type PostgresEventStoreOptions } from './postgresEventStore';
import { tombstoneStream } from './tombstoneStream';

let database: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase('eventstore');
  pool = createPool(database.url, 30);
  await ensureEventStoreSchema(pool);
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

describeEventStoreConformance('PostgreSQL', async (options = {}) => {
  const store = createPostgresEventStore({ pool, pollIntervalMs: 50, appendDelayMs: options.appendDelayMs });
  return { store, tombstone: (stream) => tombstoneStream(pool, stream), cleanup: () => store.close() };
});

/** A pool of its own on the test database that records the name (or text) of every statement it is asked to run. */
function statementCountingPool(): { pool: pg.Pool; statements: string[] } {
  const counted = createPool(database.url, 4);
  const statements: string[] = [];
  const query = counted.query.bind(counted) as (...args: unknown[]) => unknown;
  (counted as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const config = args[0] as { name?: string } | string;
    statements.push(typeof config === 'string' ? config : (config.name ?? 'unnamed'));
    return query(...args);
  };
  return { pool: counted, statements };
}

describe('PostgreSQL event store', () => {
  const stores: EventStore[] = [];
  const open = (options: Partial<PostgresEventStoreOptions> = {}) => {
    const store = createPostgresEventStore({ pool, ...options });
    stores.push(store);
    return store;
  };
  const stream = (label: string) => `pg-${label}-${randomUUID().slice(0, 8)}`;

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  it('fails only the append PostgreSQL rejects when it went in one batch with others', async () => {
    const store = open({ maxConcurrentBatches: 1 });
    const ids = Array.from({ length: 6 }, () => stream('batched'));
    const bad = newEvent('Bad', { text: 'nul \u0000 character' });

    const outcomes = await Promise.allSettled(ids.map((id, index) => store.append(id, index === 3 ? [bad] : newEvents(1), 'no_stream')));

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(await store.readStream(ids[4]!)).toHaveLength(1);
    expect(await store.readStream(ids[3]!)).toEqual([]);
  });

  it('refuses an append without events, with a non-UUID id or with the same event id twice', async () => {
    const store = open();
    const event = newEvent('Twice');
    await expect(store.append(stream('empty'), [], 'any')).rejects.toBeInstanceOf(RangeError);
    await expect(store.append(stream('twice'), [event, event], 'any')).rejects.toBeInstanceOf(RangeError);
    await expect(store.append(stream('not_uuid'), [{ ...event, id: 'order-17' }], 'any')).rejects.toBeInstanceOf(RangeError);
    await expect(store.append(stream('negative'), [newEvent('X')], -1n)).rejects.toBeInstanceOf(RangeError);
  });

  it('holds back a later commit while an earlier transaction is open, then returns both in transaction order', async () => {
    const store = open();
    const start = await store.headPosition();
    const early = stream('early');
    const late = stream('late');
    const earlyEvent = newEvent('Early');
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const batch = [{ stream: early, expected: 'no_stream', revision: null, events: [{ id: earlyEvent.id, type: 'Early', data: {} }] }];
      await client.query('SELECT * FROM eventstore.append_batch($1::jsonb)', [JSON.stringify(batch)]);
      const lateResult = await store.append(late, newEvents(1), 'no_stream');

      const whileOpen = await store.readAll({ after: start });
      expect(whileOpen.filter((event) => event.streamId === late)).toEqual([]);
      expect(await store.readStream(late)).toHaveLength(1);

      await client.query('COMMIT');
      await waitUntilVisible(store, lateResult.position);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }

    const streams = (await store.readAll({ after: start }))
      .map((event) => event.streamId)
      .filter((id) => id === early || id === late);
    expect(streams).toEqual([early, late]);
  });

  it('delivers an event held back by an unrelated open transaction as soon as that ends, with no notification for it', async () => {
    const store = open({ pollIntervalMs: 3_600_000 });
    const id = stream('held');
    const collector = collect(store, { prefix: id, after: await store.headPosition() });
    await collector.caughtUp;
    const other = await pool.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_current_xact_id()'); // a writer elsewhere on the server, with an older id
      await store.append(id, newEvents(1), 'no_stream'); // committed and notified, but behind the fence
      await sleep(100);
      expect(collector.events).toEqual([]);
      await other.query('COMMIT'); // sends no notification
    } finally {
      await other.query('ROLLBACK').catch(() => undefined);
      other.release();
    }

    await collector.until((events) => events.length === 1);
    await collector.subscription.stop();
  });

  it('reads the log as it stood at an instant: skips what was recorded after it, ends past the margin, filters by type', async () => {
    const store = open();
    const start = await store.headPosition();
    const client = await pool.connect();
    const slow = stream('slow');
    const ids = { early: stream('early'), quick: stream('quick'), kept: stream('kept'), later: stream('later') };
    try {
      // A transaction that starts (its events' `created`) before others but writes after them: in the log it comes
      // after an event recorded later than it.
      await client.query('BEGIN');
      await client.query('SELECT 1');
      await sleep(30);
      await store.append(ids.early, [newEvent('Kept')], 'no_stream');
      await sleep(30);
      await store.append(ids.quick, [newEvent('Other')], 'no_stream');
      const batch = [{ stream: slow, expected: 'no_stream', revision: null, events: [{ id: randomUUID(), type: 'Other', data: {} }] }];
      await client.query('SELECT * FROM eventstore.append_batch($1::jsonb)', [JSON.stringify(batch)]);
      await client.query('COMMIT');
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
    await sleep(30);
    await store.append(ids.kept, [newEvent('Kept')], 'no_stream');
    await sleep(30);
    const last = await store.append(ids.later, [newEvent('Kept')], 'no_stream');
    await waitUntilVisible(store, last.position);
    const ours = new Set([slow, ...Object.values(ids)]);
    const log = (await store.readAll({ after: start })).filter((event) => ours.has(event.streamId));
    expect(log.map((event) => event.streamId)).toEqual([ids.early, ids.quick, slow, ids.kept, ids.later]);
    const at = (id: string) => log.find((event) => event.streamId === id)!.created;
    expect(at(slow).getTime()).toBeLessThan(at(ids.early).getTime());

    const read = async (atOrBefore: Date, endAfter: Date, limit: number, eventTypes?: string[]) => {
      const pages: string[][] = [];
      for (let after = start, ended = false; !ended; ) {
        const page = await store.readRecorded!({ ...(after ? { after } : {}), limit, atOrBefore, endAfter, ...(eventTypes ? { eventTypes } : {}) });
        pages.push(page.events.filter((event) => ours.has(event.streamId)).map((event) => event.streamId));
        ended = page.ended;
        after = page.events.at(-1)?.position ?? after;
        if (!ended) expect(page.events).toHaveLength(limit);
      }
      return pages.flat();
    };
    // At the slow transaction's instant, with a margin up to the quick event: only the slow event, found behind
    // the two recorded after the instant; the read ends at the next event recorded past the margin.
    expect(await read(at(slow), at(ids.quick), 1000)).toEqual([slow]);
    // At the quick event, with no margin: everything recorded by then, in log order, a page of one at a time.
    expect(await read(at(ids.quick), at(ids.quick), 1)).toEqual([ids.early, ids.quick, slow]);
    // Only one type; the margin reaches past the kept event, which counts, and ends at the later one.
    expect(await read(at(ids.kept), new Date(at(ids.later).getTime() - 1), 2, ['Kept'])).toEqual([ids.early, ids.kept]);
    // An instant past them all: to the end of the log.
    expect(await read(new Date(at(ids.later).getTime() + 60_000), new Date(at(ids.later).getTime() + 60_000), 1000)).toEqual(log.map((event) => event.streamId));
    await expect(store.readRecorded!({ atOrBefore: at(ids.later), endAfter: at(ids.kept) })).rejects.toThrow(RangeError);
  });

  it('reads the log after a position as it stood at an instant by the events\' instants: late ones within the margin found, nothing after the instant', async () => {
    const store = open();
    const client = await pool.connect();
    const [anchor, slow, slower] = [stream('since-anchor'), stream('since-slow'), stream('since-slower')];
    const ids = { early: stream('since-early'), quick: stream('since-quick'), kept: stream('since-kept'), later: stream('since-later') };
    const appendIn = (target: string) => {
      const batch = [{ stream: target, expected: 'no_stream', revision: null, events: [{ id: randomUUID(), type: 'Kept', data: {} }] }];
      return client.query('SELECT * FROM eventstore.append_batch($1::jsonb)', [JSON.stringify(batch)]);
    };
    const other = await pool.connect();
    try {
      // `slower` starts before the anchor and writes after it: in the log after the anchor, recorded before it.
      await other.query('BEGIN');
      await other.query('SELECT 1');
      await sleep(40);
      const from = await store.append(anchor, [newEvent('Kept')], 'no_stream');
      // `slow` starts before `early` and `quick` and writes after them.
      await client.query('BEGIN');
      await client.query('SELECT 1');
      await sleep(30);
      await store.append(ids.early, [newEvent('Kept', {}, { actorId: 'someone', requestId: 'a request' })], 'no_stream');
      await sleep(30);
      await store.append(ids.quick, [newEvent('Other')], 'no_stream');
      await appendIn(slow);
      await client.query('COMMIT');
      const batch = [{ stream: slower, expected: 'no_stream', revision: null, events: [{ id: randomUUID(), type: 'Kept', data: {} }] }];
      await other.query('SELECT * FROM eventstore.append_batch($1::jsonb)', [JSON.stringify(batch)]);
      await other.query('COMMIT');
      await sleep(30);
      await store.append(ids.kept, [newEvent('Kept')], 'no_stream');
      await sleep(30);
      const last = await store.append(ids.later, [newEvent('Kept')], 'no_stream');
      await waitUntilVisible(store, last.position);

      const ours = new Set([anchor, slow, slower, ...Object.values(ids)]);
      const log = (await store.readAll({ after: (await store.readStream(anchor))[0]!.position })).filter((event) => ours.has(event.streamId));
      expect(log.map((event) => event.streamId)).toEqual([ids.early, ids.quick, slow, slower, ids.kept, ids.later]);
      const at = (id: string) => log.find((event) => event.streamId === id)!.created;
      const anchorAt = (await store.readStream(anchor))[0]!.created;
      expect(at(slower).getTime()).toBeLessThan(anchorAt.getTime());
      expect(at(slow).getTime()).toBeLessThan(at(ids.early).getTime());

      const read = async (atOrBefore: Date, eventTypes: string[], clockMarginMs = 1_000, recordedFrom?: Date) =>
        (await store.readRecordedSince!({ after: from.position, atOrBefore, clockMarginMs, eventTypes, ...(recordedFrom ? { recordedFrom } : {}) }))
          .filter((event) => ours.has(event.streamId))
          .map((event) => event.streamId)
          .sort();
      // At `quick`'s instant: what was recorded by then after the anchor, `slow` and `slower` included though the log
      // has them after `quick`; never the anchor itself, nor `kept` and `later`, recorded after the instant.
      expect(await read(at(ids.quick), ['Kept', 'Other'])).toEqual([ids.early, ids.quick, slow, slower].sort());
      expect(await read(at(ids.quick), ['Kept'])).toEqual([ids.early, slow, slower].sort());
      expect(await read(new Date(at(ids.kept).getTime() + 1), ['Kept', 'Other'])).toEqual([ids.early, ids.quick, slow, slower, ids.kept].sort());
      // The margin bounds how far before the position's own instant a later event may have been recorded: with none,
      // `slower` (recorded before the anchor) is not looked for.
      expect(await read(at(ids.quick), ['Kept', 'Other'], 0)).toEqual([ids.early, ids.quick, slow].sort());
      // An upper bound in the log's order: nothing after it, whatever its instant.
      const quickPosition = log.find((event) => event.streamId === ids.quick)!.position;
      expect(
        (await store.readRecordedSince!({ after: from.position, upTo: quickPosition, atOrBefore: at(ids.kept), clockMarginMs: 1_000, eventTypes: ['Kept', 'Other'] }))
          .filter((event) => ours.has(event.streamId))
          .map((event) => event.streamId)
          .sort(),
      ).toEqual([ids.early, ids.quick].sort());
      // An earlier instant vouched for by the caller (a close's stated instant) is looked from; a later one changes nothing.
      expect(await read(at(ids.quick), ['Kept', 'Other'], 0, at(slower))).toEqual([ids.early, ids.quick, slow, slower].sort());
      expect(await read(at(ids.quick), ['Kept', 'Other'], 0, at(ids.kept))).toEqual([ids.early, ids.quick, slow].sort());
      await expect(store.readRecordedSince!({ after: from.position, atOrBefore: at(ids.quick), clockMarginMs: -1, eventTypes: ['Kept'] })).rejects.toThrow(RangeError);
      // Only some keys of the metadata: those the event has, nothing else; a key that is not a plain name is refused.
      const whole = (await store.readRecordedSince!({ after: from.position, atOrBefore: at(ids.quick), clockMarginMs: 1_000, eventTypes: ['Kept'] })).find((event) => event.streamId === ids.early)!;
      const lean = (await store.readRecordedSince!({ after: from.position, atOrBefore: at(ids.quick), clockMarginMs: 1_000, eventTypes: ['Kept'], metadataKeys: ['actorId', 'missing'] })).find((event) => event.streamId === ids.early)!;
      expect(whole.metadata.actorId).toBeDefined();
      expect(Object.keys(whole.metadata).length).toBeGreaterThan(1);
      expect(lean.metadata).toEqual({ actorId: whole.metadata.actorId });
      expect({ ...lean, metadata: whole.metadata }).toEqual(whole);
      // The index it reads by summarizes each block range once filled (not at the next vacuum: a range not summarized
      // matches every read).
      const { rows: brin } = await pool.query<{ options: string[] }>(`SELECT reloptions AS options FROM pg_class WHERE oid = 'eventstore.events_created_brin'::regclass`);
      expect(brin[0]?.options).toContain('autosummarize=on');
      await expect(store.readRecordedSince!({ after: from.position, atOrBefore: at(ids.quick), clockMarginMs: 0, eventTypes: ['Kept'], metadataKeys: ["x' || 1"] })).rejects.toThrow(RangeError);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await other.query('ROLLBACK').catch(() => undefined);
      client.release();
      other.release();
    }
  });

  it('reports each stream at its last revision from its stream index, a tombstoned one at the tombstone', async () => {
    const store = open();
    const one = stream('heads-one');
    const two = stream('heads-two');
    await store.append(one, newEvents(3), 'no_stream');
    await store.append(two, newEvents(1), 'no_stream');
    await store.append(one, newEvents(2), 2n);
    await tombstoneStream(pool, two);
    const heads = await store.streamHeads!();
    expect(heads.get(one)).toBe(4n);
    expect(heads.get(two)).toBe(9223372036854775807n);
  });

  it('reads one event of a stream by its id (as the stream holds it), none for another stream, an unknown id or a tombstoned stream', async () => {
    const store = open();
    const one = stream('by-id-one');
    const two = stream('by-id-two');
    const events = newEvents(3);
    await store.append(one, events, 'no_stream');
    await store.append(two, newEvents(1), 'no_stream');
    const stored = await store.readStream(one);
    expect(await store.readEvent!(one, events[1]!.id)).toEqual(stored[1]);
    // Without the store's own method, the same event found by reading the stream.
    const { readEvent: _readEvent, ...withoutReadEvent } = store;
    expect(await readEventById(withoutReadEvent as EventStore, one, events[1]!.id)).toEqual(stored[1]);
    expect(await readEventById(store, one, events[2]!.id)).toEqual(stored[2]);
    expect(await store.readEvent!(two, events[1]!.id)).toBeUndefined();
    expect(await store.readEvent!(one, randomUUID())).toBeUndefined();
    await tombstoneStream(pool, one);
    expect(await store.readEvent!(one, events[0]!.id)).toBeUndefined();
  });

  it('sends the stream reads of one turn as one statement, each answered as it would be alone', async () => {
    const { pool: counted, statements } = statementCountingPool();
    try {
      const store = createPostgresEventStore({ pool: counted });
      stores.push(store);
      const [one, two, gone] = [stream('turn-one'), stream('turn-two'), stream('turn-gone')];
      await store.append(one, newEvents(5), 'no_stream');
      await store.append(two, newEvents(2), 'no_stream');
      await store.append(gone, newEvents(1), 'no_stream');
      await tombstoneStream(pool, gone);
      const alone = [await store.readStream(one), await store.readStream(one, { fromRevision: 2n, limit: 2 }), await store.readStream(two, { fromRevision: 1n })];
      statements.length = 0;

      const together = await Promise.all([
        store.readStream(one),
        store.readStream(one, { fromRevision: 2n, limit: 2 }),
        store.readStream(two, { fromRevision: 1n }),
        store.readStream(gone),
        store.readStream(stream('turn-missing')),
        store.readStream(two, { fromRevision: 9n }),
      ]);

      expect(statements).toEqual(['eventstore.read_streams']);
      expect(together.slice(0, 3)).toEqual(alone);
      expect(together[1]!.map((event) => event.revision)).toEqual([2n, 3n]);
      expect(together.slice(3).map((events) => events.length)).toEqual([0, 0, 0]);
      // Two reads of one stream in a turn get rows of their own.
      expect(together[0]![2]).not.toBe(together[1]![0]);
      // A read alone in its turn is the plain statement.
      statements.length = 0;
      expect(await store.readStream(two)).toHaveLength(2);
      expect(statements).toEqual(['eventstore.read_stream']);
      // A bad limit fails its own read only.
      const outcomes = await Promise.allSettled([store.readStream(one, { limit: 0 }), store.readStream(two)]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled']);
    } finally {
      await Promise.all(stores.splice(0).map((store) => store.close()));
      await counted.end();
    }
  });

  it("sends subscribers' reads of one turn as one statement, each batch as it would be read alone", async () => {
    const { pool: counted, statements } = statementCountingPool();
    try {
      const store = open();
      const kinds = ['Left', 'Right', 'Left', 'Other', 'Right', 'Left'];
      let last: Position | undefined;
      for (const [index, kind] of kinds.entries()) last = (await store.append(stream(`subs-${index}`), [newEvent(kind, { index })], 'no_stream')).position;
      // Readable once no older transaction of the server (another test file's) is open.
      await waitUntilVisible(store, last!);
      const head = await store.headPosition();
      const all = [];
      for (let page = await store.readAll({ limit: 1000 }); page.length > 0; page = await store.readAll({ after: page.at(-1)!.position, limit: 1000 })) all.push(...page);
      const mine = all.slice(all.length - kinds.length);
      const before = all[all.length - kinds.length - 1]?.position;
      const reader = createEventReader(counted, eventStoreSchema(DEFAULT_SCHEMA));
      const asks = [
        { after: before, limit: 500, types: ['Left'] },
        { after: mine[1]!.position, limit: 2, types: undefined },
        { after: head, limit: 500, types: ['Right', 'Other'] },
        { after: before, limit: 500, types: [] },
      ];
      const alone = [];
      for (const ask of asks) alone.push(await reader.readAllForSubscription(ask.after, ask.limit, ask.types));
      statements.length = 0;

      const together = await Promise.all(asks.map((ask) => reader.readAllForSubscription(ask.after, ask.limit, ask.types)));

      expect(statements).toEqual(['eventstore.read_all_subscriptions']);
      expect(together).toEqual(alone);
      expect(together[0]!.events.map((event) => event.data)).toEqual([{ index: 0 }, { index: 2 }, { index: 5 }]);
      expect(together[1]!.events.map((event) => event.id)).toEqual([mine[2]!.id, mine[3]!.id]);
      expect(together.map((batch) => batch.head)).toEqual(asks.map(() => head));
      expect(together[2]!.events).toEqual([]);
      await expect(reader.readAllForSubscription(head, 10, ['A,B'])).rejects.toThrow(RangeError);
    } finally {
      await counted.end();
    }
  });

  it("counts a stream's events by type in a range of revisions and finds its last event by type and data", async () => {
    const store = open();
    const id = stream('indexed');
    const other = stream('indexed-other');
    const kinds = ['a', 'b', 'a', 'c', 'b', 'a'];
    await store.append(id, kinds.map((kind, index) => newEvent(kind === 'c' ? 'Other' : 'Moved', { kind, index, nested: { n: index } })), 'no_stream');
    await store.append(other, [newEvent('Moved', { kind: 'a', index: 99 })], 'no_stream');
    expect(await store.countStreamEvents!(id, { toRevision: 5n, types: ['Moved'] })).toBe(5);
    expect(await store.countStreamEvents!(id, { fromRevision: 2n, toRevision: 4n, types: ['Moved', 'Other'] })).toBe(3);
    expect(await store.countStreamEvents!(id, { toRevision: 2n, types: ['Other'] })).toBe(0);
    expect(await store.countStreamEvents!(stream('missing'), { toRevision: 9n, types: ['Moved'] })).toBe(0);

    expect((await store.lastStreamEvent!(id))?.revision).toBe(5n);
    expect((await store.lastStreamEvent!(id, { toRevision: 4n, dataContains: { kind: 'a' } }))?.data).toEqual({ kind: 'a', index: 2, nested: { n: 2 } });
    expect((await store.lastStreamEvent!(id, { toRevision: 5n, types: ['Other'] }))?.revision).toBe(3n);
    expect((await store.lastStreamEvent!(id, { types: ['Moved'], dataContains: { kind: 'b', index: 1 } }))?.revision).toBe(1n);
    expect(await store.lastStreamEvent!(id, { toRevision: 2n, types: ['Other'] })).toBeUndefined();
    expect(await store.lastStreamEvent!(id, { toRevision: -1n })).toBeUndefined();
    expect(await store.lastStreamEvent!(stream('missing'))).toBeUndefined();

    // A tombstoned stream reads as missing here too.
    await tombstoneStream(pool, other);
    expect(await store.lastStreamEvent!(other)).toBeUndefined();
    expect(await store.countStreamEvents!(other, { toRevision: 0n, types: ['Moved'] })).toBe(0);
  });

  it("reads many streams' tails in one query: the last event and the last one matching each query", async () => {
    const store = open();
    const [one, two, gone] = [stream('tail-one'), stream('tail-two'), stream('tail-gone')];
    await store.append(one, ['a', 'b', 'a', 'c'].map((kind, index) => newEvent('Moved', { kind, index })), 'no_stream');
    await store.append(two, [newEvent('Moved', { kind: 'b', index: 0 })], 'no_stream');
    await store.append(gone, [newEvent('Moved', { kind: 'a', index: 0 })], 'no_stream');
    await tombstoneStream(pool, gone);
    const tails = await store.streamTails!([one, two, gone, stream('missing'), one], [{ kind: 'a' }, { kind: 'b' }, { kind: 'z' }]);
    expect([...tails.keys()].sort()).toEqual([one, two].sort());
    expect(tails.get(one)!.last.revision).toBe(3n);
    expect(tails.get(one)!.matches.map((event) => event?.revision)).toEqual([2n, 1n, undefined]);
    expect(tails.get(two)!.last.data).toEqual({ kind: 'b', index: 0 });
    expect(tails.get(two)!.matches.map((event) => event?.revision)).toEqual([undefined, 0n, undefined]);
    expect((await store.streamTails!([two])).get(two)!.matches).toEqual([]);
    expect((await store.streamTails!([])).size).toBe(0);
  });

  it('reads the tails of a chunk of streams in one round trip (no transaction)', async () => {
    let queries = 0;
    let connects = 0;
    const counted = new Proxy(pool, {
      get(target, key) {
        // The appends' notifications (a turn after each append: the pool's turnNotifier) are not the read's.
        const notification = (config: unknown) => String((config as { name?: unknown } | undefined)?.name ?? '').startsWith('platform.notify');
        if (key === 'query') return (...args: Parameters<pg.Pool['query']>) => ((queries += notification(args[0]) ? 0 : 1), target.query(...args));
        if (key === 'connect') return (...args: Parameters<pg.Pool['connect']>) => ((connects += 1), target.connect(...args));
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const store = open({ pool: counted });
    const ids = [stream('rt-one'), stream('rt-two')];
    for (const id of ids) await store.append(id, [newEvent('Moved', { kind: 'a' }), newEvent('Moved', { kind: 'b' })], 'no_stream');
    [queries, connects] = [0, 0];
    const tails = await store.streamTails!(ids, [{ kind: 'a' }, { kind: 'b' }]);
    expect(tails.get(ids[1]!)!.matches.map((event) => event?.revision)).toEqual([0n, 1n]);
    expect({ queries, connects }).toEqual({ queries: 1, connects: 0 });
  });

  it('appends to many streams in one call, each with its own outcome', async () => {
    const store = open();
    const [fresh, moved, paid, gone] = [stream('many-fresh'), stream('many-moved'), stream('many-paid'), stream('many-gone')];
    await store.append(moved, newEvents(2), 'no_stream');
    const stored = newEvent('Paid', { n: 1 });
    await store.append(paid, [newEvent('Moved', {}), stored], 'no_stream');
    await store.append(gone, newEvents(1), 'no_stream');
    await tombstoneStream(pool, gone);
    const outcomes = await store.appendMany!([
      { stream: fresh, events: newEvents(2), expectedRevision: 'no_stream' },
      { stream: fresh, events: newEvents(1), expectedRevision: 1n },
      { stream: moved, events: newEvents(1), expectedRevision: 0n },
      { stream: paid, events: [stored], expectedRevision: 0n },
      { stream: gone, events: newEvents(1), expectedRevision: 'any' },
    ]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['appended', 'appended', 'conflict', 'duplicate', 'deleted']);
    expect(outcomes[1]).toMatchObject({ nextExpectedRevision: 2n });
    expect(outcomes[2]).toEqual({ kind: 'conflict', actualRevision: 1n });
    expect(outcomes[3]).toMatchObject({ nextExpectedRevision: 1n });
    expect(await store.readStream(fresh)).toHaveLength(3);
    expect(await store.readStream(moved)).toHaveLength(2);
    expect(await store.readStream(paid)).toHaveLength(2);
    expect(await store.appendMany!([])).toEqual([]);
  });

  it('appends a large batch of independent appends set-based, with the outcomes and events of the loop', async () => {
    const store = open();
    // The same scenario twice: as one batch of SET_BASED_MIN_APPENDS+ appends, each on a stream of its own expecting a
    // revision (the set-based statement), and as the loop (the same appends plus one 'any' append at the end).
    const scenario = async (label: string) => {
      const ids = Array.from({ length: SET_BASED_MIN_APPENDS }, (_, index) => stream(`${label}-${index}`));
      const stored = ids.map(() => newEvent('Paid', { n: 1 }));
      for (const [index, id] of ids.entries()) {
        if (index % 10 === 9) continue; // no stream: conflict, revision undefined
        await store.append(id, [newEvent('Opened', { index }), ...(index % 10 >= 6 ? [stored[index]!] : [])], 'no_stream');
        if (index % 10 === 8) await tombstoneStream(pool, id);
      }
      // 0–4: appended (one or two events); 5: conflict (revision moved); 6: whole duplicate; 7: partial duplicate
      // (the stored event dropped, the other appended under the check); 8: deleted; 9: missing.
      const appends = ids.map((id, index) => {
        const kind = index % 10;
        if (kind === 6) return { stream: id, events: [stored[index]!], expectedRevision: 0n };
        if (kind === 7) return { stream: id, events: [stored[index]!, newEvent('Later', { index })], expectedRevision: 1n };
        return { stream: id, events: newEvents(kind === 1 ? 2 : 1), expectedRevision: kind === 5 ? 3n : 0n };
      });
      return { ids, appends };
    };
    const set = await scenario('set');
    const loop = await scenario('loop');
    const extra = stream('loop-extra');
    const setOutcomes = await store.appendMany!(set.appends);
    const loopOutcomes = (await store.appendMany!([...loop.appends, { stream: extra, events: newEvents(1), expectedRevision: 'any' }])).slice(0, -1);

    const shape = (outcome: StreamAppendOutcome) =>
      outcome.kind === 'conflict' ? outcome : outcome.kind === 'deleted' ? outcome : { kind: outcome.kind, nextExpectedRevision: outcome.nextExpectedRevision };
    expect(setOutcomes.map(shape)).toEqual(loopOutcomes.map(shape));
    expect(setOutcomes.slice(0, 10).map((outcome) => outcome.kind)).toEqual([
      'appended', 'appended', 'appended', 'appended', 'appended', 'conflict', 'duplicate', 'appended', 'deleted', 'conflict',
    ]);
    expect(setOutcomes[1]).toMatchObject({ nextExpectedRevision: 2n });
    expect(setOutcomes[5]).toEqual({ kind: 'conflict', actualRevision: 0n });
    expect(setOutcomes[9]).toEqual({ kind: 'conflict', actualRevision: undefined });
    for (const [index, id] of set.ids.entries()) {
      const [ours, theirs] = [await store.readStream(id), await store.readStream(loop.ids[index]!)];
      expect(ours.map((event) => [event.revision, event.type, event.data])).toEqual(theirs.map((event) => [event.revision, event.type, event.data]));
    }
    // Positions: each appended outcome at its last event; a duplicate at the stored one; the log in the appends' order.
    const positions = setOutcomes.flatMap((outcome) => (outcome.kind === 'appended' ? [outcome.position.prepare] : []));
    expect([...positions].sort((a, b) => (a < b ? -1 : 1))).toEqual(positions);
    const first = await store.readStream(set.ids[1]!);
    expect(setOutcomes[1]).toMatchObject({ position: first[2]!.position });
    const duplicate = await store.readStream(set.ids[6]!);
    expect(setOutcomes[6]).toMatchObject({ position: duplicate[1]!.position, nextExpectedRevision: 1n });
    const appendedCommits = new Set(setOutcomes.flatMap((outcome) => (outcome.kind === 'appended' ? [outcome.position.commit] : [])));
    expect(appendedCommits.size).toBe(1);
  });

  it('reports no head position and catches up at once on an empty log', async () => {
    await ensureEventStoreSchema(pool, 'es_empty');
    const store = open({ schema: 'es_empty' });

    expect(await store.headPosition()).toBeUndefined();
    expect(await store.readAll()).toEqual([]);
    const collector = collect(store, { prefix: '' });
    await collector.caughtUp;
    await collector.subscription.stop();
    expect(collector.caughtUpCalls).toEqual([0]);
  });

  it('delivers live events by polling when no notification arrives', async () => {
    const reader = open({ pollIntervalMs: 20 });
    const writer = open({ notifyChannel: 'nobody_listens' });
    const id = stream('polled');
    const collector = collect(reader, { prefix: id, after: await reader.headPosition() });
    await collector.caughtUp;

    await writer.append(id, newEvents(2), 'no_stream');

    await collector.until((events) => events.length === 2);
    await collector.subscription.stop();
  });

  it('listens again after its LISTEN connection is killed, delivering by notification', async () => {
    const store = open({ pollIntervalMs: 3_600_000 });
    const id = stream('relisten');
    const collector = collect(store, { prefix: id, after: await store.headPosition() });
    await collector.caughtUp;
    const first = await listenerPid();
    await store.append(id, newEvents(1), 'no_stream');
    await collector.until((events) => events.length === 1);

    await pool.query('SELECT pg_terminate_backend($1)', [first]);
    const second = await listenerPid(first);
    await store.append(id, newEvents(1), 0n);

    await collector.until((events) => events.length === 2);
    await collector.subscription.stop();
    expect(second).not.toBe(first);
  });
});

/**
 * The backend of this database's event-store LISTEN connection once it listens (other than `not`): its LISTEN has
 * finished (idle), so a notification sent from now on reaches it; while LISTEN still runs, one could be missed.
 */
async function listenerPid(not?: number): Promise<number> {
  for (;;) {
    const { rows } = await pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = $1 AND query LIKE 'LISTEN%' AND state = 'idle' AND pid <> $2`,
      [LISTENER_APPLICATION_NAME, not ?? 0],
    );
    if (rows[0]) return rows[0].pid;
    await sleep(20);
  }
}

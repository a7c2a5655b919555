import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chainHash } from '@bank/commands';
import { createPostgresEventStore, ensureEventStoreSchema, type EventMetadata, type EventStore } from '@bank/eventstore';
import { checkpointFileName, createCheckpointWriter } from '@bank/integrity';
import { createLogger, createPool, parseKeyringText, type Keyring } from '@bank/platform';
import { createTestDatabase, type TestDatabase, waitUntil } from '@bank/testkit';
import express from 'express';
import type pg from 'pg';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorHandler } from '../../http/errorHandler';
import { createHistoryBuilder, type Actor } from '../../testing/historyBuilder';
import { tamperEvents } from '../../testing/tamperEvents';
import { auditRoutes } from './auditRouter';
import { verifyEventLog, type VerifyEventLogOptions } from '@bank/audit';
import { verifyRecord } from '@bank/audit';

/**
 * A database-level attacker against the tamper evidence of the log (docs/audit.md, docs/security.md): the bank's own
 * events (keyed chain, CHAIN_KEYS), signed checkpoints written by the checkpoint writer into a directory outside the
 * database, and attackers who can rewrite the events table as its owner — but hold neither key.
 */
let database: TestDatabase;
let pool: pg.Pool;
let store: EventStore;
let dir = '';

const key = (fill: number) => Buffer.alloc(32, fill).toString('base64');
const chainKeys = parseKeyringText('chain', 'CHAIN_KEYS', `k1:${key(31)}`);
const checkpointKeys = parseKeyringText('checkpoint', 'CHECKPOINT_KEYS', `c1:${key(41)}`);
const admin: Actor = { id: randomUUID(), role: 'admin' };

beforeAll(async () => {
  database = await createTestDatabase('tamper_evidence');
  pool = createPool(database.url, 6);
  await ensureEventStoreSchema(pool);
  store = createPostgresEventStore({ pool });
});

beforeEach(async () => {
  await pool.query('TRUNCATE eventstore.events, eventstore.streams');
  dir = path.join(mkdtempSync(path.join(tmpdir(), 'tamper-evidence-')), 'checkpoints');
});

afterEach(() => {
  rmSync(path.dirname(dir), { recursive: true, force: true });
});

afterAll(async () => {
  await store?.close();
  await pool?.end();
  await database?.drop();
});

/** Two customers with a few money events each, through the bank's deciders and command handler, keyed with `keys`. */
async function buildHistory(keys: Keyring = chainKeys): Promise<{ alice: string; bob: string }> {
  const history = createHistoryBuilder(store, { chainKeys: keys });
  const at = (day: number) => new Date(Date.UTC(2025, 2, day, 10));
  const alice = await history.register({ firstName: 'Alice', lastName: 'Keyed', email: `alice.${randomUUID()}@example.com`, accountNumber: '3000000001' }, at(1));
  const bob = await history.register({ firstName: 'Bob', lastName: 'Keyed', email: `bob.${randomUUID()}@example.com`, accountNumber: '3000000002' }, at(1));
  for (const [userId, day] of [
    [alice, 2],
    [bob, 3],
  ] as const) {
    await history.account(
      userId,
      { type: 'AdjustBalances', adminId: admin.id, savingsCents: 50_000, checkingCents: 10_000, transactionIds: { savings: randomUUID(), checking: randomUUID() }, now: at(day).toISOString() },
      admin,
      at(day),
    );
    for (const amountCents of [1_000, 2_000]) {
      await history.account(
        userId,
        { type: 'PostStaffTransaction', transactionId: randomUUID(), adminId: admin.id, account: 'savings', direction: 'debit', amountCents, date: '2025-03-04', description: 'Fee', now: at(day + 1).toISOString() },
        admin,
        at(day + 1),
      );
    }
  }
  return { alice, bob };
}

/** Appends more events to a customer's account, as the bank does. */
async function postMore(userId: string, keys: Keyring = chainKeys): Promise<void> {
  const history = createHistoryBuilder(store, { chainKeys: keys });
  const now = new Date(Date.UTC(2025, 2, 20, 10));
  await history.account(
    userId,
    { type: 'PostStaffTransaction', transactionId: randomUUID(), adminId: admin.id, account: 'checking', direction: 'credit', amountCents: 700, date: '2025-03-20', description: 'Refund', now: now.toISOString() },
    admin,
    now,
  );
}

/** Writes a checkpoint once the global log shows every event appended so far. */
async function checkpoint(keys: Keyring = checkpointKeys): Promise<void> {
  const { rows } = await pool.query<{ last: string | null }>('SELECT max(global_position)::text AS last FROM eventstore.events');
  const last = BigInt(rows[0]?.last ?? '0');
  await waitUntil(async () => ((await store.headPosition())?.prepare ?? 0n) >= last, { what: 'the log to show every event' });
  await createCheckpointWriter({ store, keys, dir }).writeOnce();
}

function options(overrides: Partial<VerifyEventLogOptions> = {}): VerifyEventLogOptions {
  return { chainKeys, checkpoints: { dir, keys: checkpointKeys }, streamHeads: () => store.streamHeads!(), ...overrides };
}

const brief = (mismatches: ReadonlyArray<{ kind: string; stream: string; revision?: number; reason: string }>) =>
  mismatches.map((m) => [m.kind, m.stream, m.revision, m.reason]);

interface Row {
  revision: string;
  event_id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

/**
 * What an attacker without the chain key does: changes an event's data, recomputes every hash of the stream from
 * there with plain SHA-256 (no key id), appends a forged event on top and bumps `streams` to match.
 */
async function forgeWithPlainChain(stream: string, fromRevision: number, change: (data: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  const { rows } = await pool.query<Row>('SELECT revision::text, event_id::text, type, data, metadata FROM eventstore.events WHERE stream_id = $1 ORDER BY revision', [stream]);
  let prevHash = fromRevision === 0 ? null : (rows[fromRevision - 1]!.metadata.hash as string);
  const rewritten: Row[] = [...rows.slice(fromRevision), { ...rows.at(-1)!, revision: String(rows.length), event_id: randomUUID() }];
  for (const [index, row] of rewritten.entries()) {
    const { chainKeyId: _key, hash: _hash, ...rest } = row.metadata;
    const data = index === 0 ? change(row.data) : row.data;
    const metadata = { ...rest, prevHash };
    const hash = chainHash({ streamId: stream, revision: BigInt(row.revision), id: row.event_id, type: row.type, data, metadata }, prevHash);
    const values = [stream, row.revision, JSON.stringify(data), JSON.stringify({ ...metadata, hash })];
    if (index < rewritten.length - 1) {
      await tamperEvents(pool, 'UPDATE eventstore.events SET data = $3::jsonb, metadata = $4::jsonb WHERE stream_id = $1 AND revision = $2', values);
    } else {
      await pool.query('INSERT INTO eventstore.events (stream_id, revision, event_id, type, data, metadata) VALUES ($1, $2, $5, $6, $3::jsonb, $4::jsonb)', [...values, row.event_id, row.type]);
    }
    prevHash = hash;
  }
  await pool.query('UPDATE eventstore.streams SET revision = $2 WHERE stream_id = $1', [stream, rows.length]);
}

describe('an attacker with write access to the database, without the keys', () => {
  it('who rewrites an event and recomputes the chain with plain SHA-256 (streams bumped) is caught and named', async () => {
    const { alice, bob } = await buildHistory();
    await checkpoint();
    expect((await verifyEventLog(store, options())).mismatches).toEqual([]);

    // Bob's fee becomes 1 cent from its event on; Alice's whole account stream is rewritten from revision 0.
    await forgeWithPlainChain(`account-${bob}`, 2, (data) => ({ ...data, amountCents: 1 }));
    await forgeWithPlainChain(`account-${alice}`, 0, (data) => ({ ...data, accountNumber: '9999999999' }));

    const report = await verifyEventLog(store, options());
    expect(brief(report.mismatches)).toHaveLength(2);
    expect(brief(report.mismatches)).toEqual(
      expect.arrayContaining([
        ['chain', `account-${alice}`, 0, 'unkeyed'],
        ['chain', `account-${bob}`, 2, 'unkeyed'],
      ]),
    );
    const byStream = new Map(report.mismatches.map((m) => [m.stream, m.message]));
    expect(byStream.get(`account-${bob}`)).toMatch(/plain SHA-256 hash after keyed ones: it was rewritten by someone without the chain key/);
    expect(byStream.get(`account-${alice}`)).toMatch(/the keyed chain began before it/);
    // The stream index agrees with the forgery.
    expect((await store.streamHeads!()).get(`account-${bob}`)).toBe(5n);
  });

  it('who deletes the newest events of a stream as the table owner and fixes streams is caught by the signed checkpoint and named', async () => {
    const { alice, bob } = await buildHistory();
    await postMore(alice); // Alice's event is the newest of the log: the deletion below is inside it
    await checkpoint();
    const bobs = `account-${bob}`;
    const { rowCount } = await tamperEvents(pool, 'DELETE FROM eventstore.events WHERE stream_id = $1 AND revision >= 3', [bobs]);
    expect(rowCount).toBe(2);
    await pool.query('UPDATE eventstore.streams SET revision = 2 WHERE stream_id = $1', [bobs]);

    // The chain and the stream index alone cannot show it.
    expect((await verifyEventLog(store, options({ checkpoints: undefined }))).mismatches).toEqual([]);

    const report = await verifyEventLog(store, options());
    expect(brief(report.mismatches)).toEqual([
      ['checkpoint', bobs, 3, 'checkpointed_events_missing'],
      ['checkpoint', '$all', undefined, 'log_count_mismatch'],
    ]);
    expect(report.mismatches[0]!.message).toMatch(new RegExp(`${bobs}: the signed checkpoint of .* \\(record 1\\) says the stream reached revision 4, but its events end at revision 2: events 3…4 were deleted`));
    expect(report.mismatches[1]!.message).toMatch(/counted \d+: 2 were deleted/);
    expect(report.checkpoint).toMatchObject({ records: 1 });

    // The bank goes on: new events in place of the deleted ones, a newer checkpoint. The fork still shows.
    await postMore(bob);
    await postMore(bob);
    await checkpoint();
    const later = await verifyEventLog(store, options());
    expect(brief(later.mismatches)).toEqual([
      ['checkpoint', bobs, 3, 'checkpoint_fork'],
      ['checkpoint', '$all', undefined, 'log_count_mismatch'],
    ]);
    expect(later.mismatches[0]!.message).toMatch(/events 3…4 were removed and others appended in their place/);
  });

  it('who deletes the newest events of the whole log is caught: the log no longer reaches the checkpoint', async () => {
    const { alice } = await buildHistory();
    await postMore(alice);
    await checkpoint();
    await tamperEvents(pool, `DELETE FROM eventstore.events WHERE stream_id = $1 AND revision = 5`, [`account-${alice}`]);
    await pool.query('UPDATE eventstore.streams SET revision = 4 WHERE stream_id = $1', [`account-${alice}`]);
    expect(brief((await verifyEventLog(store, options())).mismatches)).toEqual([
      ['checkpoint', `account-${alice}`, 5, 'checkpointed_events_missing'],
      ['checkpoint', '$all', undefined, 'log_truncated'],
      ['checkpoint', '$all', undefined, 'log_count_mismatch'],
    ]);
  });

  it('who edits the checkpoint file to match a deletion fails its signature', async () => {
    const { bob } = await buildHistory();
    await checkpoint();
    const bobs = `account-${bob}`;
    await tamperEvents(pool, 'DELETE FROM eventstore.events WHERE stream_id = $1 AND revision = 4', [bobs]);
    await pool.query('UPDATE eventstore.streams SET revision = 3 WHERE stream_id = $1', [bobs]);
    const file = path.join(dir, checkpointFileName(1));
    const text = readFileSync(file, 'utf8');
    const line = JSON.parse(text) as { record: { events: string; heads: Array<[string, string, string | null, string, string | null]> } };
    const head = line.record.heads.find(([stream]) => stream === bobs)!;
    head[3] = '3';
    head[4] = (await store.readStream(bobs)).at(-1)!.metadata.hash as string;
    line.record.events = String(BigInt(line.record.events) - 1n);
    writeFileSync(file, `${JSON.stringify(line)}\n`);

    const report = await verifyEventLog(store, options());
    expect(brief(report.mismatches)).toEqual([['checkpoint', checkpointFileName(1), undefined, 'checkpoint_bad_signature']]);
    expect(report.mismatches[0]!.message).toMatch(/line 1 \(record 1\): its signature does not match its content/);
    expect(report.checkpoint).toBeUndefined();
  });

  it('is answered by GET /audit/verify with the stream named', async () => {
    const { bob } = await buildHistory();
    await checkpoint();
    const bobs = `account-${bob}`;
    await tamperEvents(pool, 'DELETE FROM eventstore.events WHERE stream_id = $1 AND revision = 4', [bobs]);
    await pool.query('UPDATE eventstore.streams SET revision = 3 WHERE stream_id = $1', [bobs]);
    const app = express();
    app.use('/audit', auditRoutes({ store, pool, verify: () => verifyRecord({ store, ...options(), readModels: async () => ({ balances: 0, mismatches: [] }) }) }));
    app.use(errorHandler(createLogger('tamper-test', 'silent')));
    const res = await request(app).get('/audit/verify').expect(200);
    expect(res.body.data.ok).toBe(false);
    expect(res.body.data.checkpoint).toMatchObject({ records: 1 });
    expect(res.body.data.mismatches).toEqual([
      expect.objectContaining({ kind: 'checkpoint', stream: bobs, revision: 4, reason: 'checkpointed_events_missing' }),
      // Bob's event was the newest of the log.
      expect.objectContaining({ kind: 'checkpoint', stream: '$all', reason: 'log_truncated' }),
      expect.objectContaining({ kind: 'checkpoint', stream: '$all', reason: 'log_count_mismatch' }),
    ]);
  });
});

describe('key rotation', () => {
  it('keeps events keyed with a retired chain key, and records signed with a retired checkpoint key, verifying', async () => {
    const { alice, bob } = await buildHistory();
    await checkpoint();
    const chainRotated = parseKeyringText('chain', 'CHAIN_KEYS', `k2:${key(32)},k1:${key(31)}`);
    const checkpointRotated = parseKeyringText('checkpoint', 'CHECKPOINT_KEYS', `c2:${key(42)},c1:${key(41)}`);
    await postMore(alice, chainRotated);
    await postMore(bob, chainRotated);
    await checkpoint(checkpointRotated);
    const events = await store.readStream(`account-${alice}`);
    expect(events.map((event) => event.metadata.chainKeyId)).toEqual(['k1', 'k1', 'k1', 'k1', 'k1', 'k2']);
    const lines = readFileSync(path.join(dir, checkpointFileName(1)), 'utf8').trimEnd().split('\n');
    expect(lines.map((text) => (JSON.parse(text) as { keyId: string }).keyId)).toEqual(['c1', 'c2']);

    const rotated = options({ chainKeys: chainRotated, checkpoints: { dir, keys: checkpointRotated } });
    expect((await verifyEventLog(store, rotated)).mismatches).toEqual([]);

    // A key removed too early: every event it keyed is named, and no longer vouched for.
    const tooEarly = await verifyEventLog(store, { ...rotated, chainKeys: parseKeyringText('chain', 'CHAIN_KEYS', `k2:${key(32)}`) });
    expect(tooEarly.mismatches.length).toBeGreaterThan(0);
    expect(tooEarly.mismatches.every((m) => m.kind === 'chain' && m.reason === 'unknown_key' && m.revision === 0)).toBe(true);
  });
});

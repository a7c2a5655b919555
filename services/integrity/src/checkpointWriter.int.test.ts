import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toNewEvents } from '@bank/commands';
import { comparePositions, createPostgresEventStore, ensureEventStoreSchema, type EventStore, type Position } from '@bank/eventstore';
import { createPool, parseKeyringText, sleep } from '@bank/platform';
import { createTestDatabase, type TestDatabase, waitUntil } from '@bank/testkit';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkpointFileName, listCheckpointFiles } from './checkpointFiles';
import { CheckpointChainError, createCheckpointWriter, startCheckpointWriter, type CheckpointWriterHandle } from './checkpointWriter';
import { loadCheckpoints } from './loadCheckpoints';

let database: TestDatabase;
let pool: pg.Pool;
let store: EventStore;
const dirs: string[] = [];
const handles: CheckpointWriterHandle[] = [];

const c1 = `c1:${Buffer.alloc(32, 21).toString('base64')}`;
const c2 = `c2:${Buffer.alloc(32, 22).toString('base64')}`;
const keys = parseKeyringText('checkpoint', 'CHECKPOINT_KEYS', c1);
const chainKeys = parseKeyringText('chain', 'CHAIN_KEYS', `k1:${Buffer.alloc(32, 23).toString('base64')}`);

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'checkpoint-writer-'));
  dirs.push(dir);
  return path.join(dir, 'checkpoints');
}

/** Appends `count` chained (keyed) events to a stream and waits until the global log shows them. */
async function append(stream: string, count: number): Promise<Position> {
  const existing = await store.readStream(stream);
  const last = existing.at(-1);
  const events = Array.from({ length: count }, (_, i) => ({ type: 'Noted', data: { n: existing.length + i } }));
  const after = { revision: last?.revision, lastHash: typeof last?.metadata.hash === 'string' ? last.metadata.hash : null };
  const result = await store.append(stream, toNewEvents(stream, events, after, { metadata: { actorRole: 'system' } }, new Date(), chainKeys.current), last ? last.revision : 'no_stream');
  // The PostgreSQL log shows an event once no older transaction anywhere on the server is still open.
  await waitUntil(async () => {
    const head = await store.headPosition();
    return head !== undefined && comparePositions(head, result.position) >= 0;
  });
  return result.position;
}

beforeAll(async () => {
  database = await createTestDatabase('checkpoint_writer');
  pool = createPool(database.url, 6);
  await ensureEventStoreSchema(pool);
  store = createPostgresEventStore({ pool });
});

beforeEach(async () => {
  // Each test starts on an empty log (the test database is this file's own; the trigger guards UPDATE and DELETE only).
  await pool.query('TRUNCATE eventstore.events, eventstore.streams');
});

afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.stop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

afterAll(async () => {
  await store?.close();
  await pool?.end();
  await database?.drop();
});

describe('the checkpoint writer', () => {
  it('vouches for every stream on its first run, then names only the streams that moved, each linked to the record before', async () => {
    const dir = tempDir();
    await append('s-a', 3);
    await append('s-b', 2);
    const writer = createCheckpointWriter({ store, keys, dir });
    expect(await writer.writeOnce()).toMatchObject({ records: 1, events: 5 });

    await append('s-a', 2);
    expect(await writer.writeOnce()).toMatchObject({ records: 1, events: 2 });
    expect(await writer.writeOnce()).toMatchObject({ records: 0, events: 0 });

    const loaded = await loadCheckpoints(dir, keys);
    expect(loaded.problems).toEqual([]);
    expect(loaded.forks.size).toBe(0);
    expect(loaded.records).toBe(2);
    expect([...loaded.heads].map(([stream, head]) => [stream, head.revision, head.seq])).toEqual([
      ['s-a', 4n, 2],
      ['s-b', 1n, 1],
    ]);
    const stored = await store.readStream('s-a');
    expect(loaded.heads.get('s-a')?.hash).toBe(stored[4]!.metadata.hash);
    expect(loaded.last).toMatchObject({ seq: 2, events: 7n, token: store.positionToken(stored[4]!.position) });
    expect(loaded.keyedFrom).toEqual(stored[0]!.position);
    const second = loaded.last!.heads;
    expect(second).toEqual([{ stream: 's-a', firstRevision: 3n, prevHash: stored[2]!.metadata.hash, revision: 4n, hash: stored[4]!.metadata.hash }]);
  });

  it('splits a long catch-up into records of at most maxHeadsPerRecord streams', async () => {
    const dir = tempDir();
    for (const name of ['s-1', 's-2', 's-3', 's-4', 's-5']) await append(name, 2);
    const writer = createCheckpointWriter({ store, keys, dir, maxHeadsPerRecord: 2, pageSize: 3 });
    expect(await writer.writeOnce()).toMatchObject({ records: 3, events: 10 });
    const loaded = await loadCheckpoints(dir, keys);
    expect(loaded.problems).toEqual([]);
    expect([...loaded.heads.keys()].sort()).toEqual(['s-1', 's-2', 's-3', 's-4', 's-5']);
    expect(loaded.last).toMatchObject({ seq: 3, events: 10n });
  });

  it('names an edited record (its signature fails, its claims are not trusted) and a removed one', async () => {
    const dir = tempDir();
    const writer = createCheckpointWriter({ store, keys, dir });
    for (const stream of ['s-a', 's-b', 's-c']) {
      await append(stream, 2);
      await writer.writeOnce();
    }
    const file = path.join(dir, checkpointFileName(1));
    const original = readFileSync(file, 'utf8');
    const lines = original.trimEnd().split('\n');
    expect(lines).toHaveLength(3);

    // An attacker lowers what record 2 vouches for (s-b's last revision 1 → 0), keeping the signature.
    const edited = lines[1]!.replace('["s-b","0",null,"1",', '["s-b","0",null,"0",');
    expect(edited).not.toBe(lines[1]);
    writeFileSync(file, `${[lines[0], edited, lines[2]].join('\n')}\n`);
    const afterEdit = await loadCheckpoints(dir, keys);
    expect(afterEdit.problems).toEqual([expect.objectContaining({ seq: 2, line: 2, reason: 'bad_signature' })]);
    expect(afterEdit.problems[0]!.message).toMatch(/checkpoints-000001\.jsonl line 2 \(record 2\): its signature does not match its content/);
    expect(afterEdit.heads.has('s-b')).toBe(false);
    expect(afterEdit.records).toBe(2);

    writeFileSync(file, `${[lines[0], lines[2]].join('\n')}\n`);
    const afterRemoval = await loadCheckpoints(dir, keys);
    expect(afterRemoval.problems).toEqual([expect.objectContaining({ seq: 3, reason: 'record_missing' })]);
    expect(afterRemoval.problems[0]!.message).toMatch(/record 3 follows record 1: records 2…2 are missing/);
  });

  it('keeps records signed with a retired key verifying after a rotation, and names a key no longer configured', async () => {
    const dir = tempDir();
    await append('s-a', 1);
    await createCheckpointWriter({ store, keys, dir }).writeOnce();
    const rotated = parseKeyringText('checkpoint', 'CHECKPOINT_KEYS', `${c2},${c1}`);
    await append('s-a', 1);
    await createCheckpointWriter({ store, keys: rotated, dir }).writeOnce();
    const lines = readFileSync(path.join(dir, checkpointFileName(1)), 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { keyId: string }).keyId)).toEqual(['c1', 'c2']);

    const loaded = await loadCheckpoints(dir, rotated);
    expect(loaded.problems).toEqual([]);
    expect(loaded.records).toBe(2);
    const withoutOld = await loadCheckpoints(dir, parseKeyringText('checkpoint', 'CHECKPOINT_KEYS', c2));
    expect(withoutOld.problems).toEqual([expect.objectContaining({ seq: 1, reason: 'unknown_key' })]);
  });

  it('does not continue a chain whose newest record it cannot trust, and starts a new one once the files are moved aside', async () => {
    const dir = tempDir();
    await append('s-a', 2);
    await createCheckpointWriter({ store, keys, dir }).writeOnce();
    const file = path.join(dir, checkpointFileName(1));
    writeFileSync(file, readFileSync(file, 'utf8').replace('"events":"2"', '"events":"1"'));
    await append('s-a', 1);
    const writer = createCheckpointWriter({ store, keys, dir });
    await expect(writer.writeOnce()).rejects.toBeInstanceOf(CheckpointChainError);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(1);

    renameSync(dir, `${dir}.suspect`);
    expect(await writer.writeOnce()).toMatchObject({ records: 1, events: 3 });
    const loaded = await loadCheckpoints(dir, keys);
    expect(loaded.problems).toEqual([]);
    expect(loaded.last).toMatchObject({ seq: 1, events: 3n });
  });
});

describe('the checkpoint writer of the worker role', () => {
  it('runs in one process at a time; a standby continues the same chain when the leader stops, which writes a last record first', async () => {
    const dir = tempDir();
    await append('s-a', 1);
    const options = { store, keys, dir, connection: pool.options, everyMs: 100 };
    const leader = startCheckpointWriter(options);
    handles.push(leader);
    await waitUntil(async () => (await listCheckpointFiles(dir)).length > 0, { what: 'the first checkpoint' });
    const standby = startCheckpointWriter(options);
    handles.push(standby);
    await sleep(300);
    expect(await standby.writeNow()).toBeUndefined();

    await append('s-b', 1);
    await leader.stop();
    const afterStop = await loadCheckpoints(dir, keys);
    expect(afterStop.heads.has('s-b')).toBe(true);

    await append('s-c', 1);
    await waitUntil(async () => (await loadCheckpoints(dir, keys)).heads.has('s-c'), { what: "the standby's checkpoint" });
    const loaded = await loadCheckpoints(dir, keys);
    expect(loaded.problems).toEqual([]);
    expect(loaded.last?.events).toBe(3n);
  });
});

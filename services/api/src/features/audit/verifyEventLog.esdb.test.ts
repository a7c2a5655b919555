import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { toNewEvents } from '@bank/commands';
import { createEsdbEventStore, type EventStore } from '@bank/eventstore';
import { createCheckpointWriter } from '@bank/integrity';
import { parseKeyringText } from '@bank/platform';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { verifyEventLog } from '@bank/audit';

/**
 * The same tamper evidence on the EventStoreDB adapter. No EventStoreDB server runs here, so the client the adapter
 * creates is replaced by one that serves an in-memory log the way the server serves it (its records shaped as the
 * 6.2.1 client converts them); everything above the client — the adapter's reads of $all and of streams, its
 * positions and tokens, the checkpoint writer and the verification — is the real code. What is EventStoreDB's own:
 * several events of one append share a commit position (the position token names the commit, not an event); $all
 * also holds system records ($metadata); events are never changed in place, but a stream can be deleted (its events
 * then read as none, and stay in $all until a scavenge removes them) or deleted and written again (its revisions go
 * on where they stopped).
 */
interface LogRecord {
  readonly event: {
    readonly streamId: string;
    readonly id: string;
    readonly revision: bigint;
    readonly type: string;
    readonly data: unknown;
    readonly metadata: unknown;
    readonly isJson: boolean;
    readonly created: Date;
    readonly position: { commit: bigint; prepare: bigint };
  };
  readonly commitPosition: bigint;
}

const server = vi.hoisted(() => ({ log: [] as LogRecord[], deleted: new Set<string>(), truncatedBefore: new Map<string, bigint>(), nextCommit: 1_000n }));

vi.mock('@eventstore/db-client', async (importOriginal) => {
  const actual = await importOriginal<Record<string, unknown>>();
  type Position = { commit: bigint; prepare: bigint };
  const compare = (a: Position, b: Position) => (a.commit === b.commit ? Number(a.prepare - b.prepare) : Number(a.commit - b.commit));
  const read = (records: readonly LogRecord[]) => Object.assign(Readable.from(records), { cancel: async () => undefined });
  const client = {
    readAll(options: { fromPosition?: 'start' | 'end' | Position; maxCount?: number | bigint; direction?: string } = {}) {
      const from = options.fromPosition ?? 'start';
      const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
      const at = (record: LogRecord) => record.event.position;
      const page =
        options.direction === 'backwards'
          ? [...server.log].reverse().filter((record) => typeof from === 'string' || compare(at(record), from) <= 0)
          : server.log.filter((record) => from === 'start' || (typeof from !== 'string' && compare(at(record), from) >= 0));
      return read(page.slice(0, max));
    },
    readStream(stream: string, options: { fromRevision?: 'start' | 'end' | bigint; maxCount?: number | bigint; direction?: string } = {}) {
      // A deleted stream reads as none (the real client throws StreamNotFound/StreamDeleted, which the adapter maps to none).
      const before = server.truncatedBefore.get(stream) ?? 0n;
      const events = server.deleted.has(stream) ? [] : server.log.filter((record) => record.event.streamId === stream && record.event.revision >= before);
      const from = options.fromRevision ?? 'start';
      const max = Number(options.maxCount ?? Number.MAX_SAFE_INTEGER);
      const ordered =
        options.direction === 'backwards' ? [...events].reverse() : events.filter((record) => typeof from !== 'bigint' || record.event.revision >= from);
      return read(ordered.slice(0, max));
    },
    dispose: async () => undefined,
  };
  return { ...actual, EventStoreDBClient: { connectionString: () => client } };
});

const chainKeys = parseKeyringText('chain', 'CHAIN_KEYS', `k1:${Buffer.alloc(32, 51).toString('base64')}`);
const checkpointKeys = parseKeyringText('checkpoint', 'CHECKPOINT_KEYS', `c1:${Buffer.alloc(32, 52).toString('base64')}`);
let store: EventStore;
let dir = '';

/** One append as the server records it: one commit position for all its events, each its own prepare position. */
function append(stream: string, count: number): void {
  const existing = server.log.filter((record) => record.event.streamId === stream);
  const last = existing.at(-1)?.event;
  const events = toNewEvents(
    stream,
    Array.from({ length: count }, (_, i) => ({ type: 'Noted', data: { n: existing.length + i } })),
    { revision: last?.revision, lastHash: (last?.metadata as { hash?: string } | undefined)?.hash ?? null },
    { metadata: { actorRole: 'system' } },
    new Date(),
    chainKeys.current,
  );
  const commit = (server.nextCommit += 1_000n);
  events.forEach((event, i) => {
    server.log.push({
      event: {
        streamId: stream,
        id: event.id,
        revision: (last ? last.revision + 1n : 0n) + BigInt(i),
        type: event.type,
        data: event.data,
        metadata: event.metadata,
        isJson: true,
        created: new Date(),
        position: { commit, prepare: commit + BigInt(i) * 100n },
      },
      commitPosition: commit,
    });
  });
}

/** A stream's metadata record, as the server writes one into $all. */
function systemRecord(stream: string): void {
  const commit = (server.nextCommit += 1_000n);
  server.log.push({
    event: { streamId: `$$${stream}`, id: randomUUID(), revision: 0n, type: '$metadata', data: { $maxAge: 1 }, metadata: {}, isJson: true, created: new Date(), position: { commit, prepare: commit } },
    commitPosition: commit,
  });
}

beforeEach(() => {
  server.log = [];
  server.deleted.clear();
  server.truncatedBefore.clear();
  store = createEsdbEventStore({ connectionString: 'esdb://localhost:2113?tls=false' });
  dir = path.join(mkdtempSync(path.join(tmpdir(), 'esdb-checkpoints-')), 'checkpoints');
});

afterEach(async () => {
  await store.close();
  rmSync(path.dirname(dir), { recursive: true, force: true });
});

const verify = () => verifyEventLog(store, { chainKeys, checkpoints: { dir, keys: checkpointKeys, required: true } });
const brief = (mismatches: ReadonlyArray<{ kind: string; stream: string; revision?: number; reason: string }>) =>
  mismatches.map((m) => [m.kind, m.stream, m.revision, m.reason]);

describe('tamper evidence on the EventStoreDB adapter', () => {
  it('checkpoints appends that share a commit position, skips system records, and finds the log intact', async () => {
    append('s-a', 3);
    systemRecord('s-a');
    append('s-b', 2);
    append('s-a', 2);
    expect(brief((await verify()).mismatches)).toEqual([['checkpoint', '$all', undefined, 'checkpoint_missing']]);

    // One stream per record, and a later run that resumes after the newest.
    const writer = createCheckpointWriter({ store, keys: checkpointKeys, dir, maxHeadsPerRecord: 1 });
    expect(await writer.writeOnce()).toMatchObject({ records: 3, events: 7 });
    append('s-b', 1);
    expect(await writer.writeOnce()).toMatchObject({ records: 1, events: 1 });

    const report = await verify();
    expect(report.mismatches).toEqual([]);
    const newest = server.log.at(-1)!.event.position;
    expect(report.checkpoint).toMatchObject({ records: 4, streams: 2, position: newest.commit.toString() });
  });

  it('names a stream deleted after a checkpoint, and the events a scavenge then removed from $all', async () => {
    append('s-a', 2);
    append('s-b', 3);
    append('s-a', 1);
    await createCheckpointWriter({ store, keys: checkpointKeys, dir }).writeOnce();

    server.deleted.add('s-b');
    expect(brief((await verify()).mismatches)).toEqual([['checkpoint', 's-b', 0, 'checkpointed_events_missing']]);

    server.log = server.log.filter((record) => record.event.streamId !== 's-b');
    const report = await verify();
    expect(brief(report.mismatches)).toEqual([
      ['checkpoint', 's-b', 0, 'checkpointed_events_missing'],
      ['checkpoint', '$all', undefined, 'log_count_mismatch'],
    ]);
    expect(report.mismatches[1]!.message).toMatch(/3 were deleted/);
  });

  it('names a stream deleted and written again with forged events', async () => {
    append('s-a', 2);
    append('s-b', 2);
    await createCheckpointWriter({ store, keys: checkpointKeys, dir }).writeOnce();
    // Deleted, then written again: the server goes on from revision 2; reads show only what came after the deletion.
    server.truncatedBefore.set('s-b', 2n);
    append('s-b', 1);
    expect(brief((await verify()).mismatches)).toEqual([['chain', 's-b', 2, 'revision_gap']]);
  });
});

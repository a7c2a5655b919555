import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '@bank/commands';
import type { Position } from '@bank/eventstore';
import type { Keyring, KeyringKey } from '@bank/platform';
import { z } from 'zod';

/**
 * One signed checkpoint of the event log, a line of a checkpoint file (checkpointFiles.ts):
 *
 *   { "record": { v, seq, prev, writtenAt, position, token, events, keyedFrom, heads }, "keyId": "c1", "sig": "<hex>" }
 *
 * - `heads`: [stream, firstRevision, prevHash, revision, hash] of every stream that gained events since the
 *   previous record (the first records of a chain of records hold every stream of the log): the first of those
 *   events and the hash it links to, the last one and its chain hash. Consecutive records of a stream therefore
 *   link up (firstRevision = the previous revision + 1, prevHash = the previous hash), and a stream whose vouched-for
 *   events were replaced shows even when new events were appended after the replacement;
 * - `position` / `token`: the last event of the global log the record covers, `events` how many events the global
 *   log holds up to and including it;
 * - `keyedFrom`: the position of the first event with a keyed chain hash (null before any): unkeyed events after
 *   it are forgeries (docs/audit.md);
 * - `seq` counts the records from 1 and `prev` is the previous record's `sig`, so a record removed from the files
 *   shows;
 * - `sig`: HMAC-SHA-256 over the canonical JSON of `record`, with the CHECKPOINT_KEYS key named by `keyId`.
 */
export interface CheckpointHead {
  readonly stream: string;
  /** The first event of the stream this record covers, and the chain hash that event links to. */
  readonly firstRevision: bigint;
  readonly prevHash: string | null;
  /** The stream's last event when the record was written, and its chain hash. */
  readonly revision: bigint;
  readonly hash: string | null;
}

export interface CheckpointRecord {
  readonly seq: number;
  readonly prev: string | null;
  readonly writtenAt: string;
  readonly position: Position;
  readonly token: string;
  readonly events: bigint;
  readonly keyedFrom: Position | null;
  readonly heads: readonly CheckpointHead[];
}

export interface SignedCheckpoint extends CheckpointRecord {
  readonly keyId: string;
  readonly sig: string;
}

export const CHECKPOINT_FORMAT_VERSION = 1;

const digits = z.string().regex(/^\d{1,20}$/);
const wirePosition = z.object({ commit: digits, prepare: digits }).strict();
const wireRecord = z
  .object({
    v: z.literal(CHECKPOINT_FORMAT_VERSION),
    seq: z.number().int().min(1),
    prev: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
    writtenAt: z.string().min(1),
    position: wirePosition,
    token: z.string().min(1),
    events: digits,
    keyedFrom: wirePosition.nullable(),
    heads: z.array(z.tuple([z.string().min(1), digits, z.string().nullable(), digits, z.string().nullable()])),
  })
  .strict();
const wireLine = z.object({ record: wireRecord, keyId: z.string().min(1), sig: z.string().regex(/^[0-9a-f]{64}$/) }).strict();
type WireRecord = z.infer<typeof wireRecord>;

function toWirePosition(position: Position): { commit: string; prepare: string } {
  return { commit: position.commit.toString(), prepare: position.prepare.toString() };
}

function fromWirePosition(position: { commit: string; prepare: string }): Position {
  return { commit: BigInt(position.commit), prepare: BigInt(position.prepare) };
}

function toWire(record: CheckpointRecord): WireRecord {
  return {
    v: CHECKPOINT_FORMAT_VERSION,
    seq: record.seq,
    prev: record.prev,
    writtenAt: record.writtenAt,
    position: toWirePosition(record.position),
    token: record.token,
    events: record.events.toString(),
    keyedFrom: record.keyedFrom ? toWirePosition(record.keyedFrom) : null,
    heads: record.heads.map(
      (head) => [head.stream, head.firstRevision.toString(), head.prevHash, head.revision.toString(), head.hash] as [string, string, string | null, string, string | null],
    ),
  };
}

function signatureOf(wire: WireRecord, key: Buffer): string {
  return createHmac('sha256', key).update(canonicalJson(wire)).digest('hex');
}

/** The record as a signed line of a checkpoint file (without the newline), and its signature. */
export function signCheckpoint(record: CheckpointRecord, key: KeyringKey): { line: string; sig: string } {
  const wire = toWire(record);
  const sig = signatureOf(wire, key.key);
  return { line: JSON.stringify({ record: wire, keyId: key.id, sig }), sig };
}

export type ParsedCheckpointLine =
  | { readonly ok: true; readonly checkpoint: SignedCheckpoint }
  | { readonly ok: false; readonly reason: 'unreadable' | 'unknown_key' | 'bad_signature'; readonly detail: string; readonly seq?: number; readonly sig?: string };

/**
 * Reads one line and checks its signature with the keyring: the record, or why it cannot be trusted (a line that is
 * not a record, a key id the keyring does not hold, a signature that does not match what the line says).
 */
export function parseCheckpointLine(text: string, keys: Pick<Keyring, 'byId'>): ParsedCheckpointLine {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'unreadable', detail: 'not JSON' };
  }
  const parsed = wireLine.safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'unreadable', detail: parsed.error.issues[0]?.message ?? 'not a checkpoint record' };
  const { record, keyId, sig } = parsed.data;
  const key = keys.byId(keyId);
  if (!key) return { ok: false, reason: 'unknown_key', detail: `signed with key ${JSON.stringify(keyId)}, which CHECKPOINT_KEYS does not hold`, seq: record.seq, sig };
  const expected = Buffer.from(signatureOf(record, key), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) {
    return { ok: false, reason: 'bad_signature', detail: 'its signature does not match its content: the record was changed after it was signed', seq: record.seq, sig };
  }
  return {
    ok: true,
    checkpoint: {
      seq: record.seq,
      prev: record.prev,
      writtenAt: record.writtenAt,
      position: fromWirePosition(record.position),
      token: record.token,
      events: BigInt(record.events),
      keyedFrom: record.keyedFrom ? fromWirePosition(record.keyedFrom) : null,
      heads: record.heads.map(([stream, firstRevision, prevHash, revision, hash]) => ({
        stream,
        firstRevision: BigInt(firstRevision),
        prevHash,
        revision: BigInt(revision),
        hash,
      })),
      keyId,
      sig,
    },
  };
}

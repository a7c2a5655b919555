import path from 'node:path';
import type { Position } from '@bank/eventstore';
import type { Keyring } from '@bank/platform';
import { readCheckpointLines } from './checkpointFiles';
import { parseCheckpointLine, type CheckpointHead, type SignedCheckpoint } from './checkpointRecord';

/** Something wrong with the checkpoint files themselves. */
export interface CheckpointFileProblem {
  readonly file: string;
  readonly line: number;
  readonly seq?: number;
  readonly reason: 'unreadable' | 'unknown_key' | 'bad_signature' | 'record_missing' | 'link_mismatch';
  readonly message: string;
}

/**
 * A stream whose checkpointed events were replaced: a later record goes on from a revision (or a hash) other than
 * the one the earlier records vouched for — events were deleted or rewritten and others appended after them.
 */
export interface CheckpointFork {
  readonly stream: string;
  /** The first revision the later record covers. */
  readonly revision: bigint;
  readonly seq: number;
  readonly message: string;
}

/** What the signed checkpoints vouch for about one stream: it reached `revision`, whose event has `hash`. */
export interface CheckpointedHead {
  readonly revision: bigint;
  readonly hash: string | null;
  /** The record that said so last. */
  readonly seq: number;
  readonly writtenAt: string;
}

export interface LoadedCheckpoints {
  readonly dir: string;
  /** Records read and trusted (signature good). */
  readonly records: number;
  /** The newest trusted record. */
  readonly last: SignedCheckpoint | undefined;
  /** Every stream any trusted record names, at the newest revision named. */
  readonly heads: ReadonlyMap<string, CheckpointedHead>;
  /** The earliest position at which the trusted records saw a keyed chain hash. */
  readonly keyedFrom: Position | null;
  readonly problems: readonly CheckpointFileProblem[];
  /** Per stream, the first place where the records do not link up (at most one per stream). */
  readonly forks: ReadonlyMap<string, CheckpointFork>;
  /** Every trusted record's place in the global log (seq order): what a restored log is measured against. */
  readonly covers: readonly RecordCover[];
  /** Trusted records left out by `throughSeq` (a restored log ends before them). */
  readonly beyond: { readonly records: number; readonly firstWrittenAt?: string; readonly firstSeq?: number };
}

/** Where one record stands in the global log: its last event and how many events the log held up to it. */
export interface RecordCover {
  readonly seq: number;
  readonly writtenAt: string;
  readonly position: Position;
  readonly events: bigint;
}

export interface LoadCheckpointsOptions {
  /**
   * Trust only the records up to this seq: the later ones still have their signatures and links checked, but vouch
   * for nothing (a log restored to an earlier instant does not hold what they saw).
   */
  readonly throughSeq?: number;
}

/**
 * Reads every checkpoint file of `dir` and checks each record's signature with the keyring and its place in the
 * chain of records (seq counting up by one, `prev` naming the record before). A record that fails its signature is
 * reported and not trusted; the others still are.
 */
export async function loadCheckpoints(dir: string, keys: Pick<Keyring, 'byId'>, options: LoadCheckpointsOptions = {}): Promise<LoadedCheckpoints> {
  const heads = new Map<string, CheckpointedHead>();
  const covers: RecordCover[] = [];
  const beyond: { records: number; firstWrittenAt?: string; firstSeq?: number } = { records: 0 };
  const forks = new Map<string, CheckpointFork>();
  const problems: CheckpointFileProblem[] = [];
  let records = 0;
  let last: SignedCheckpoint | undefined;
  let keyedFrom: Position | null = null;
  // Where the chain stands: the previous line's seq and signature, trusted or not (a bad record is reported once).
  let previous: { seq: number; sig: string } | undefined;

  for await (const line of readCheckpointLines(dir)) {
    const where = `${path.basename(line.file)} line ${line.line}`;
    const parsed = parseCheckpointLine(line.text, keys);
    const seq = parsed.ok ? parsed.checkpoint.seq : parsed.seq;
    const sig = parsed.ok ? parsed.checkpoint.sig : parsed.sig;
    if (seq !== undefined) {
      const expected = previous ? previous.seq + 1 : 1;
      if (seq !== expected) {
        problems.push({
          file: line.file,
          line: line.line,
          seq,
          reason: 'record_missing',
          message: `${where}: record ${seq} follows ${previous ? `record ${previous.seq}` : 'nothing'}: ${seq > expected ? `records ${expected}…${seq - 1} are missing` : 'the records are out of order'}`,
        });
      } else if (parsed.ok && parsed.checkpoint.prev !== (previous?.sig ?? null)) {
        problems.push({ file: line.file, line: line.line, seq, reason: 'link_mismatch', message: `${where}: record ${seq} does not name the record before it` });
      }
      previous = { seq, sig: sig ?? '' };
    }
    if (!parsed.ok) {
      problems.push({ file: line.file, line: line.line, ...(seq !== undefined ? { seq } : {}), reason: parsed.reason, message: `${where}${seq !== undefined ? ` (record ${seq})` : ''}: ${parsed.detail}` });
      continue;
    }
    const checkpoint = parsed.checkpoint;
    covers.push({ seq: checkpoint.seq, writtenAt: checkpoint.writtenAt, position: checkpoint.position, events: checkpoint.events });
    if (options.throughSeq !== undefined && checkpoint.seq > options.throughSeq) {
      beyond.records += 1;
      if (beyond.firstSeq === undefined) {
        beyond.firstSeq = checkpoint.seq;
        beyond.firstWrittenAt = checkpoint.writtenAt;
      }
      continue;
    }
    records += 1;
    last = checkpoint;
    if (checkpoint.keyedFrom && !keyedFrom) keyedFrom = checkpoint.keyedFrom;
    for (const head of checkpoint.heads) {
      const known = heads.get(head.stream);
      if (known && !forks.has(head.stream)) {
        const fork = forkBetween(head.stream, known, head, checkpoint);
        if (fork) forks.set(head.stream, fork);
      }
      heads.set(head.stream, { revision: head.revision, hash: head.hash, seq: checkpoint.seq, writtenAt: checkpoint.writtenAt });
    }
  }
  return { dir, records, last, heads, keyedFrom, problems, forks, covers, beyond };
}

function forkBetween(stream: string, known: CheckpointedHead, head: CheckpointHead, checkpoint: SignedCheckpoint): CheckpointFork | undefined {
  const earlier = `record ${known.seq} (${known.writtenAt}) vouched for revision ${known.revision}`;
  const later = `record ${checkpoint.seq} (${checkpoint.writtenAt})`;
  let what: string | undefined;
  if (head.firstRevision <= known.revision) {
    what = `${earlier}, yet ${later} saw new events from revision ${head.firstRevision}: events ${head.firstRevision}…${known.revision} were removed and others appended in their place`;
  } else if (head.firstRevision > known.revision + 1n) {
    what = `${earlier}, then ${later} saw revision ${head.firstRevision}: revisions ${known.revision + 1n}…${head.firstRevision - 1n} never appeared in the global log`;
  } else if (head.prevHash !== known.hash) {
    what = `${earlier}, but the event at revision ${head.firstRevision} seen by ${later} links to another hash: the events up to revision ${known.revision} were rewritten`;
  }
  return what === undefined ? undefined : { stream, revision: head.firstRevision, seq: checkpoint.seq, message: what };
}

import { CHAIN_KEY_ID, verifyChain, type ChainBreak, type ChainKeys } from '@bank/commands';
import { comparePositions, type EventStore, type Position, type RecordedEvent } from '@bank/eventstore';
import {
  checkLogAgainstCheckpoint,
  checkStreamAgainstCheckpoints,
  countTowards,
  loadCheckpoints,
  restoredThroughSeq,
  type CheckpointMismatch,
  type LoadedCheckpoints,
  type LogCount,
} from '@bank/integrity';
import type { Keyring } from '@bank/platform';
import path from 'node:path';

/** One place where the record does not hold: a broken hash chain, a missing tail, or a read model that disagrees. */
export interface AuditMismatch {
  readonly kind: 'chain' | 'stream_head' | 'schema' | 'read_model' | 'checkpoint';
  /**
   * The stream that fails (for a read-model mismatch, the account stream of that customer; `$all` for the global
   * log; a checkpoint file's name for a problem in that file).
   */
  readonly stream: string;
  /** Revision of the first event that fails, when one can be named. */
  readonly revision?: number;
  /** Position token (as in X-Event-Position) of the first event that fails, when one can be named. */
  readonly position?: string;
  readonly reason: string;
  readonly message: string;
}

export interface ChainVerification {
  readonly streams: number;
  readonly events: number;
  readonly mismatches: AuditMismatch[];
  /** What the signed checkpoints held (absent: none were found, or none were looked for). */
  readonly checkpoint?: CheckpointSummary;
  /** A restored log (CheckpointSource.restored): the records it holds all of, and those beyond it. */
  readonly restore?: RestoreSummary;
}

/** Where a log restored to an earlier instant stands among the signed checkpoints. */
export interface RestoreSummary {
  /** The newest record the restored log holds all of (0: none), and when it was written. */
  readonly throughSeq: number;
  readonly throughWrittenAt: string | null;
  /** Records written after the instant restored to: they saw events the restored log does not hold. */
  readonly beyondRecords: number;
  readonly firstBeyondWrittenAt: string | null;
}

/** The newest signed checkpoint the verification compared the log with. */
export interface CheckpointSummary {
  /** Records read and trusted. */
  readonly records: number;
  /** Streams they vouch for. */
  readonly streams: number;
  /** When the newest was written, and the position (token) it covers. */
  readonly writtenAt: string;
  readonly position: string;
}

/** Where the signed checkpoints are (docs/audit.md) and the keys that verify them. */
export interface CheckpointSource {
  readonly dir: string;
  readonly keys: Pick<Keyring, 'byId'>;
  /** No checkpoint at all (while the log has events) is a mismatch, not only a remark: production. */
  readonly required?: boolean;
  /**
   * The log was restored from a backup to an earlier instant (the operator says so: `audit:verify --restored`): the
   * records it holds all of are checked as always; the later ones, which saw events committed after that instant,
   * are reported as beyond the restored log (RestoreSummary) instead of as deleted events. Their signatures and links
   * are still checked.
   */
  readonly restored?: boolean;
}

/** Where a verification stands: `scan` reads the whole log once, `streams` checks each stream's chain. */
export interface VerifyProgress {
  readonly phase: 'scan' | 'streams' | 'read-models';
  readonly done: number;
  /** The events (scan) or streams (streams) in all, when known. */
  readonly total?: number;
}

export interface VerifyEventLogOptions {
  /** Events per readAll page (default 1000). */
  readonly pageSize?: number;
  /**
   * The revision each stream's index says its last event has (the PostgreSQL store keeps one per stream).
   * When given, a stream whose events end earlier (its last events deleted), or that has no events at all,
   * is reported: a hash chain alone cannot show a cut-off tail.
   */
  readonly streamHeads?: () => Promise<ReadonlyMap<string, bigint>>;
  /**
   * A check of each event's content beyond its hash (e.g. that its data fits the event's schema): returns what is
   * wrong, or undefined. A stream with an intact chain reports its first event that fails it.
   */
  readonly checkEvent?: (event: RecordedEvent) => string | undefined;
  /** The chain keyring (CHAIN_KEYS): without it, every keyed event is reported as `unknown_key`. */
  readonly chainKeys?: ChainKeys;
  /** The signed checkpoints to compare the log with (docs/audit.md). */
  readonly checkpoints?: CheckpointSource;
  /** Told as the work goes: events of the log scanned, then streams checked (for a CLI's progress bar). */
  readonly onProgress?: (progress: VerifyProgress) => void;
}

const chainMessages: Record<ChainBreak['reason'], string> = {
  hash_mismatch: 'the event no longer matches its hash: its content was changed after it was written',
  link_mismatch: 'the event does not link to the hash of the event before it',
  revision_gap: 'an event before this one is missing',
  missing_hash: 'the event carries no hash',
  unknown_key: 'the event names a chain key that CHAIN_KEYS does not hold (a retired key removed too early, or a forged key id)',
  unkeyed: 'the event has a plain SHA-256 hash after keyed ones: it was rewritten by someone without the chain key',
};

/** What one pass over the global log tells. */
interface LogScan {
  readonly names: Set<string>;
  /** Events at or before `upTo`, and whether one stands exactly there. */
  readonly count: LogCount;
  /** The first event with a keyed chain hash. */
  readonly firstKeyed: Position | undefined;
}

/** Reads the global log page by page (works on both adapters): stream names, events up to a position, the first keyed one. */
async function scanLog(store: EventStore, pageSize: number, upTo: Position | undefined, onProgress?: (progress: VerifyProgress) => void): Promise<LogScan> {
  const names = new Set<string>();
  const count = { eventsUpTo: 0n, reached: false };
  let firstKeyed: Position | undefined;
  let after: Position | undefined;
  let scanned = 0;
  // On PostgreSQL a position's token is its global sequence number: about the number of events in the log.
  const head = onProgress ? await store.headPosition() : undefined;
  const total = head ? Number(store.positionToken(head)) : undefined;
  for (;;) {
    const page = await store.readAll({ after, limit: pageSize });
    scanned += page.length;
    onProgress?.({ phase: 'scan', done: scanned, ...(total && total >= scanned ? { total } : {}) });
    for (const event of page) {
      names.add(event.streamId);
      if (upTo) countTowards(count, event, upTo);
      if (!firstKeyed && typeof event.metadata[CHAIN_KEY_ID] === 'string') firstKeyed = event.position;
    }
    const last = page.at(-1);
    if (!last || page.length < pageSize) return { names, count, firstKeyed };
    after = last.position;
  }
}

/** For each position, the events of the global log up to it and whether one stands exactly there (one pass). */
async function countAtPositions(store: EventStore, pageSize: number, positions: readonly Position[]): Promise<LogCount[]> {
  const order = positions.map((_, index) => index).sort((a, b) => comparePositions(positions[a]!, positions[b]!));
  const counts = positions.map(() => ({ eventsUpTo: 0n, reached: false }));
  let seen = 0n;
  let next = 0;
  let after: Position | undefined;
  for (;;) {
    const page = await store.readAll({ after, limit: pageSize });
    for (const event of page) {
      for (; next < order.length && comparePositions(positions[order[next]!]!, event.position) < 0; next += 1) counts[order[next]!]!.eventsUpTo = seen;
      seen += 1n;
      for (let j = next; j < order.length && comparePositions(positions[order[j]!]!, event.position) === 0; j += 1) counts[order[j]!]!.reached = true;
    }
    const last = page.at(-1);
    if (!last || page.length < pageSize) break;
    after = last.position;
  }
  for (; next < order.length; next += 1) counts[order[next]!]!.eventsUpTo = seen;
  return counts;
}

/** Every stream name in the global log, read page by page (works on both adapters). */
export async function listStreams(store: EventStore, pageSize = 1000): Promise<Set<string>> {
  return (await scanLog(store, pageSize, undefined)).names;
}

function firstInvalid(
  events: readonly RecordedEvent[],
  check: (event: RecordedEvent) => string | undefined,
): { event: RecordedEvent; problem: string } | undefined {
  for (const event of events) {
    const problem = check(event);
    if (problem !== undefined) return { event, problem };
  }
  return undefined;
}

/** A system stream of EventStoreDB ($-prefixed): not ours to verify. */
function isSystemStream(name: string): boolean {
  return name.startsWith('$');
}

/** The earlier of two positions (either may be missing). */
function earliest(a: Position | null | undefined, b: Position | null | undefined): Position | undefined {
  if (!a) return b ?? undefined;
  if (!b) return a;
  return comparePositions(a, b) <= 0 ? a : b;
}

function checkpointMismatch(stream: string, store: EventStore, found: CheckpointMismatch, position?: Position): AuditMismatch {
  return {
    kind: 'checkpoint',
    stream,
    ...(found.revision !== undefined ? { revision: Number(found.revision) } : {}),
    ...(position ? { position: store.positionToken(position) } : {}),
    reason: found.reason,
    message: found.message,
  };
}

/** Problems of the checkpoint files themselves, and of the global log against the newest record. */
async function checkpointFileMismatches(store: EventStore, loaded: LoadedCheckpoints, scan: LogScan, required: boolean): Promise<AuditMismatch[]> {
  const mismatches: AuditMismatch[] = loaded.problems.map((problem) => ({
    kind: 'checkpoint',
    stream: path.basename(problem.file),
    reason: `checkpoint_${problem.reason}`,
    message: problem.message,
  }));
  if (loaded.last) {
    for (const found of checkLogAgainstCheckpoint(loaded.last, scan.count)) {
      mismatches.push(checkpointMismatch('$all', store, found));
    }
  } else if (required && scan.names.size > 0) {
    mismatches.push({
      kind: 'checkpoint',
      stream: '$all',
      reason: 'checkpoint_missing',
      message: `no signed checkpoint in ${loaded.dir}, yet the log holds events: the newest events of a stream could be deleted unseen (is the worker running, and CHECKPOINT_DIR the directory it writes?)`,
    });
  }
  return mismatches;
}

/**
 * Checks the hash chain of every stream of the store (keyed with CHAIN_KEYS, or legacy), and the log against the
 * signed checkpoints when they are given; reports the first problem of each stream.
 */
export async function verifyEventLog(store: EventStore, options: VerifyEventLogOptions = {}): Promise<ChainVerification> {
  let loaded = options.checkpoints ? await loadCheckpoints(options.checkpoints.dir, options.checkpoints.keys) : undefined;
  let restore: RestoreSummary | undefined;
  if (loaded && options.checkpoints?.restored) {
    const counts = await countAtPositions(store, options.pageSize ?? 1000, loaded.covers.map((cover) => cover.position));
    const throughSeq = restoredThroughSeq(loaded.covers, (index) => counts[index]!);
    const through = loaded.covers.find((cover) => cover.seq === throughSeq);
    loaded = await loadCheckpoints(options.checkpoints.dir, options.checkpoints.keys, { throughSeq });
    restore = { throughSeq, throughWrittenAt: through?.writtenAt ?? null, beyondRecords: loaded.beyond.records, firstBeyondWrittenAt: loaded.beyond.firstWrittenAt ?? null };
  }
  const heads = options.streamHeads ? await options.streamHeads() : new Map<string, bigint>();
  const scan = await scanLog(store, options.pageSize ?? 1000, loaded?.last?.position, options.onProgress);
  const names = new Set(scan.names);
  for (const name of heads.keys()) names.add(name);
  for (const name of loaded?.heads.keys() ?? []) names.add(name);
  // Unkeyed events after the first keyed one anywhere in the log (or after the position the checkpoints saw it at,
  // if earlier) are rewrites by someone without the key: legacy events all come before.
  const keyedFrom = earliest(loaded?.keyedFrom, scan.firstKeyed);
  const mismatches: AuditMismatch[] = [];
  let streams = 0;
  let events = 0;
  const toCheck = [...names].filter((name) => !isSystemStream(name)).sort();
  for (const stream of toCheck) {
    const recorded = await store.readStream(stream);
    streams += 1;
    if (streams % 100 === 0 || streams === toCheck.length) options.onProgress?.({ phase: 'streams', done: streams, total: toCheck.length });
    events += recorded.length;
    const broken = verifyChain(recorded, options.chainKeys);
    if (broken) {
      const detail = broken.reason === 'unknown_key' ? ` (${JSON.stringify(broken.keyId)})` : '';
      mismatches.push({
        kind: 'chain',
        stream,
        revision: Number(broken.revision),
        position: broken.position ? store.positionToken(broken.position) : undefined,
        reason: broken.reason,
        message: `${stream} revision ${broken.revision}: ${chainMessages[broken.reason]}${detail}`,
      });
      continue;
    }
    const downgraded = keyedFrom
      ? recorded.find((event) => event.metadata[CHAIN_KEY_ID] === undefined && comparePositions(event.position, keyedFrom) >= 0)
      : undefined;
    if (downgraded) {
      mismatches.push({
        kind: 'chain',
        stream,
        revision: Number(downgraded.revision),
        position: store.positionToken(downgraded.position),
        reason: 'unkeyed',
        message: `${stream} revision ${downgraded.revision}: the event has a plain SHA-256 hash, yet the keyed chain began before it (at position ${store.positionToken(keyedFrom!)}): it was written or rewritten by someone without the chain key`,
      });
      continue;
    }
    const invalid = options.checkEvent ? firstInvalid(recorded, options.checkEvent) : undefined;
    if (invalid) {
      mismatches.push({
        kind: 'schema',
        stream,
        revision: Number(invalid.event.revision),
        position: store.positionToken(invalid.event.position),
        reason: 'invalid_data',
        message: `${stream} revision ${invalid.event.revision}: ${invalid.problem}`,
      });
      continue;
    }
    if (loaded) {
      const found = checkStreamAgainstCheckpoints(stream, recorded, loaded.heads.get(stream), loaded.forks.get(stream));
      if (found) {
        const at = found.revision === undefined ? undefined : recorded.find((event) => event.revision === found.revision);
        mismatches.push(checkpointMismatch(stream, store, found, at?.position));
        continue;
      }
    }
    const head = heads.get(stream);
    const last = recorded.at(-1);
    if (head !== undefined && (last === undefined || last.revision < head)) {
      const from = last === undefined ? 0n : last.revision + 1n;
      mismatches.push({
        kind: 'stream_head',
        stream,
        revision: Number(from),
        reason: 'tail_missing',
        message: `${stream}: the stream's index says it ends at revision ${head}, but its events end ${
          last === undefined ? 'before revision 0' : `at revision ${last.revision}`
        }: events ${from}…${head} are missing`,
      });
    }
  }
  if (loaded) mismatches.push(...(await checkpointFileMismatches(store, loaded, scan, options.checkpoints?.required ?? false)));
  const checkpoint: CheckpointSummary | undefined = loaded?.last
    ? { records: loaded.records, streams: loaded.heads.size, writtenAt: loaded.last.writtenAt, position: loaded.last.token }
    : undefined;
  return { streams, events, mismatches, ...(checkpoint ? { checkpoint } : {}), ...(restore ? { restore } : {}) };
}

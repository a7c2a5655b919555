import { verifyChain, type ChainBreak } from '@bank/core';
import type { EventStore, Position, RecordedEvent } from '@bank/eventstore';

/** One place where the record does not hold: a broken hash chain, a missing tail, or a read model that disagrees. */
export interface AuditMismatch {
  readonly kind: 'chain' | 'stream_head' | 'schema' | 'read_model';
  /** The stream that fails (for a read-model mismatch, the account stream of that customer). */
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
}

const chainMessages: Record<ChainBreak['reason'], string> = {
  hash_mismatch: 'the event no longer matches its hash: its content was changed after it was written',
  link_mismatch: 'the event does not link to the hash of the event before it',
  revision_gap: 'an event before this one is missing',
  missing_hash: 'the event carries no hash',
};

/** Every stream name in the global log, read page by page (works on both adapters). */
export async function listStreams(store: EventStore, pageSize = 1000): Promise<Set<string>> {
  const names = new Set<string>();
  let after: Position | undefined;
  for (;;) {
    const page = await store.readAll({ after, limit: pageSize });
    for (const event of page) names.add(event.streamId);
    const last = page.at(-1);
    if (!last || page.length < pageSize) return names;
    after = last.position;
  }
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

/** Checks the hash chain of every stream of the store; reports the first break of each broken stream. */
export async function verifyEventLog(store: EventStore, options: VerifyEventLogOptions = {}): Promise<ChainVerification> {
  const heads = options.streamHeads ? await options.streamHeads() : new Map<string, bigint>();
  const names = await listStreams(store, options.pageSize);
  for (const name of heads.keys()) names.add(name);
  const mismatches: AuditMismatch[] = [];
  let streams = 0;
  let events = 0;
  for (const stream of [...names].filter((name) => !isSystemStream(name)).sort()) {
    const recorded = await store.readStream(stream);
    streams += 1;
    events += recorded.length;
    const broken = verifyChain(recorded);
    if (broken) {
      mismatches.push({
        kind: 'chain',
        stream,
        revision: Number(broken.revision),
        position: broken.position ? store.positionToken(broken.position) : undefined,
        reason: broken.reason,
        message: `${stream} revision ${broken.revision}: ${chainMessages[broken.reason]}`,
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
  return { streams, events, mismatches };
}

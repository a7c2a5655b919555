import { comparePositions, type Position, type RecordedEvent } from '@bank/eventstore';
import type { SignedCheckpoint } from './checkpointRecord';
import type { CheckpointedHead, CheckpointFork } from './loadCheckpoints';

/** A place where the event log no longer holds what a signed checkpoint vouched for. */
export interface CheckpointMismatch {
  readonly reason: 'checkpoint_fork' | 'checkpointed_events_missing' | 'checkpointed_hash_changed' | 'log_truncated' | 'log_count_mismatch';
  /** The first revision that fails, when one can be named. */
  readonly revision?: bigint;
  readonly message: string;
}

function recordName(head: Pick<CheckpointedHead, 'seq' | 'writtenAt'>): string {
  return `the signed checkpoint of ${head.writtenAt} (record ${head.seq})`;
}

/**
 * One stream's events as the store has them now (all of them, in revision order) against the checkpoints: the stream
 * must still reach the newest revision they vouch for, with the same chain hash there, and their records must link
 * up (no fork).
 */
export function checkStreamAgainstCheckpoints(
  stream: string,
  events: readonly RecordedEvent[],
  head: CheckpointedHead | undefined,
  fork: CheckpointFork | undefined,
): CheckpointMismatch | undefined {
  if (fork) return { reason: 'checkpoint_fork', revision: fork.revision, message: `${stream}: ${fork.message}` };
  if (!head) return undefined;
  const last = events.at(-1);
  const event = events.find((candidate) => candidate.revision === head.revision);
  if (!event) {
    const from = last === undefined ? 0n : last.revision + 1n;
    return {
      reason: 'checkpointed_events_missing',
      revision: from,
      message: `${stream}: ${recordName(head)} says the stream reached revision ${head.revision}, but its events end ${
        last === undefined ? 'before revision 0' : `at revision ${last.revision}`
      }: events ${from}…${head.revision} were deleted`,
    };
  }
  const hash = typeof event.metadata.hash === 'string' ? event.metadata.hash : null;
  if (hash !== head.hash) {
    return {
      reason: 'checkpointed_hash_changed',
      revision: head.revision,
      message: `${stream} revision ${head.revision}: the event no longer has the hash ${recordName(head)} recorded: the stream was rewritten up to here`,
    };
  }
  return undefined;
}

/** What a pass over the global log (readAll, page by page) found about the newest record's position. */
export interface LogCount {
  /** Events at or before the record's position. */
  readonly eventsUpTo: bigint;
  /** Whether an event stands at exactly that position. */
  readonly reached: boolean;
}

/**
 * The global log against the newest record: the event at its position must still be there, and the log must hold as
 * many events up to it as the record counted. Counted by the caller through readAll, so on either adapter (an
 * EventStoreDB position token names a whole commit, not one event: it is only shown, never looked up).
 */
export function checkLogAgainstCheckpoint(last: SignedCheckpoint, count: LogCount): CheckpointMismatch[] {
  const mismatches: CheckpointMismatch[] = [];
  const name = recordName(last);
  if (!count.reached) {
    mismatches.push({
      reason: 'log_truncated',
      message: `the global log no longer holds the event at position ${last.token}, the last one ${name} covers: the log was cut short or rewritten`,
    });
  }
  if (count.eventsUpTo !== last.events) {
    const missing = last.events - count.eventsUpTo;
    const difference = missing > 0n ? `${missing} ${missing === 1n ? 'was' : 'were'} deleted` : `${-missing} ${missing === -1n ? 'was' : 'were'} inserted into the past`;
    mismatches.push({
      reason: 'log_count_mismatch',
      message: `the global log holds ${count.eventsUpTo} events up to position ${last.token}, ${name} counted ${last.events}: ${difference}`,
    });
  }
  return mismatches;
}

/** Counts one event of a pass over the global log against the newest record's position. */
export function countTowards(count: { eventsUpTo: bigint; reached: boolean }, event: Pick<RecordedEvent, 'position'>, upTo: Position): void {
  const order = comparePositions(event.position, upTo);
  if (order <= 0) count.eventsUpTo += 1n;
  if (order === 0) count.reached = true;
}

/**
 * The records a restored log still holds all of: the longest run of records, from the first, whose last event is in
 * the log with as many events up to it as the record counted. A log restored to an instant holds what was committed
 * before it, so the records written before that instant are covered and the later ones are beyond it. Returns the
 * last covered record's seq (0: none). `countAt` answers for each record's position (countTowards per position).
 */
export function restoredThroughSeq(covers: readonly { readonly seq: number; readonly events: bigint }[], countAt: (index: number) => LogCount): number {
  let through = 0;
  for (const [index, cover] of covers.entries()) {
    const count = countAt(index);
    if (!count.reached || count.eventsUpTo !== cover.events) break;
    through = cover.seq;
  }
  return through;
}

/**
 * One stream of a generated bank, decided command by command by its domain decider and chained event by event, each
 * event with the metadata and id of the command that made it (who acted, and for the transfer process's steps the
 * same command ids the process uses: transferStepContext). Written whole with appendStream, in chunks.
 */
import { toNewEvents, type CommandContext, type DomainEventLike } from '@bank/commands';
import type { Decider } from '@bank/domain';
import type { EventStore, NewEvent, Position } from '@bank/eventstore';
import type { KeyringKey } from '@bank/platform';
import { daySlot, type SeedCalendar } from './seedCalendar';
import type { SpilledEvent } from './seedSpill';

/** A run of a stream's events in one slot of the history (seedCalendar.ts): revisions from `fromRevision`. */
export interface StreamSegment {
  readonly slot: number;
  readonly fromRevision: number;
  readonly events: readonly NewEvent[];
  /** The stream's last segment (the streams table's row goes with it). */
  readonly last: boolean;
}

export class SeedStream<C, E extends DomainEventLike, S> {
  readonly events: NewEvent[] = [];
  private state: S;
  private lastHash: string | null = null;
  /** Where each slot's events begin in `events`, in slot order. */
  private readonly starts: { slot: number; from: number }[] = [];

  constructor(
    readonly stream: string,
    private readonly decider: Decider<C, E, S>,
    private readonly chainKey: KeyringKey | undefined,
    /** The history whose days give the events' slots. */
    private readonly calendar: SeedCalendar,
  ) {
    this.state = decider.initialState;
  }

  /** Decides `command` on the stream as it stands and chains what it yields; a refusal throws (a bug in the plan). */
  command(command: C, context: CommandContext, at: string, slot?: number): void {
    this.decide((state) => this.decider.decide(command, state), context, at, slot);
  }

  /** The slot of the stream's last event (-1 before the first). */
  get lastSlot(): number {
    return this.starts.at(-1)?.slot ?? -1;
  }

  /** The slot an event at `at` (or in `slot`) takes: never before the stream's last event. */
  slotFor(at: string, slot?: number): number {
    return Math.max(this.lastSlot, slot ?? daySlot(this.calendar.dayOf(at)));
  }

  /**
   * Chains what `decide` yields on the stream as it stands, as one command's events (one context, one `at`), in the
   * slot of `at`'s day (or `slot`), or the stream's last slot when that is later.
   */
  decide(decide: (state: S) => readonly E[], context: CommandContext, at: string, slot?: number): void {
    const decided = decide(this.state);
    if (decided.length === 0) return;
    const into = this.slotFor(at, slot);
    if (into > this.lastSlot) this.starts.push({ slot: into, from: this.events.length });
    for (const event of decided) this.state = this.decider.evolve(this.state, event);
    const revision = this.events.length === 0 ? undefined : BigInt(this.events.length - 1);
    const chained = toNewEvents(this.stream, decided, { revision, lastHash: this.lastHash }, context, new Date(at), this.chainKey);
    const hash = chained.at(-1)?.metadata?.hash;
    this.lastHash = typeof hash === 'string' ? hash : null;
    for (const event of chained) this.events.push(event);
  }

  /** The stream's events, slot by slot (what was decided since the last call when `since` is given). */
  segments(since = 0): StreamSegment[] {
    const segments: StreamSegment[] = [];
    this.starts.forEach((start, i) => {
      const end = this.starts[i + 1]?.from ?? this.events.length;
      if (end <= since) return;
      const from = Math.max(start.from, since);
      segments.push({ slot: start.slot, fromRevision: from, events: this.events.slice(from, end), last: i === this.starts.length - 1 });
    });
    return segments;
  }
}

/** The instant (microseconds since the epoch) at which the history records the `index`-th event of a call to a sink. */
export type RecordedAt = (index: number) => number;

/** An instant in microseconds since the epoch as ISO text with its six digits (what timestamptz keeps). */
export function isoMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  return `${new Date(ms).toISOString().slice(0, 23)}${String(micros - ms * 1000).padStart(3, '0')}Z`;
}

/** Where a generated bank's streams go, a segment at a time, in the log's order (seedDays.ts). */
export interface SeedSink {
  /**
   * Stores `events` as revisions `fromRevision`… of `stream` (`last`: the stream's last segment); answers the
   * position of its last event. `recordedAt`: the instant (µs) the history records the call's `index`-th event at,
   * which the bulk path writes as the event's `created`; the store's appends record the instant they run at.
   */
  append(stream: string, events: readonly NewEvent[], fromRevision: number, last: boolean, recordedAt?: RecordedAt): Promise<Position | undefined>;
  /** Events of the spilled history as they are (bulkEventLoad.ts: no decoding); without, `append` gets them decoded. */
  appendSpilled?(spilled: readonly SpilledEvent[], recordedAt?: RecordedAt): Promise<Position | undefined>;
  /** Makes everything handed over so far readable in the store (a day close reads it back). */
  commit?(): Promise<void>;
  /**
   * The events handed over since the last call, each with the position and instant the log records it at, from a
   * sink that knows them before it commits (the bulk path): the day close folds them instead of reading its day back
   * from the store, so nothing is committed for it.
   */
  takeWritten?(): Promise<readonly WrittenEvent[]>;
}

/** An event a sink has written (or will commit) at a known place of the log. */
export interface WrittenEvent {
  readonly spilled: SpilledEvent;
  readonly position: Position;
  /** The instant the log records it at (its `created`), in microseconds. */
  readonly recordedAtMicros: number;
}

/** The store's own appends (appendStream): restartable, into a store that may hold events already. */
export function storeSink(store: EventStore, chunk: number): SeedSink {
  return { append: (stream, events, fromRevision) => appendStream(store, stream, events, chunk, fromRevision) };
}

/**
 * Appends a whole stream in chunks, each with the revision the previous one left; answers the last one's position. Event ids derive from the seed
 * (command ids), so a restarted load appends ids already stored: the store answers those appends without storing
 * anything (idempotent by id) and carries on where the last run stopped.
 */
export async function appendStream(store: EventStore, stream: string, events: readonly NewEvent[], chunk: number, fromRevision = 0): Promise<Position | undefined> {
  let expected: 'no_stream' | bigint = fromRevision === 0 ? 'no_stream' : BigInt(fromRevision - 1);
  let position: Position | undefined;
  for (let start = 0; start < events.length; start += chunk) {
    const result = await store.append(stream, events.slice(start, start + chunk), expected);
    expected = result.nextExpectedRevision;
    position = result.position;
  }
  return position;
}

/**
 * One stream of a generated bank, decided command by command by its domain decider and chained event by event, each
 * event with the metadata and id of the command that made it (who acted, and for the transfer process's steps the
 * same command ids the process uses: transferStepContext). Written whole with appendStream, in chunks.
 */
import { toNewEvents, type CommandContext, type DomainEventLike } from '@bank/commands';
import type { Decider } from '@bank/domain';
import type { EventStore, NewEvent, Position } from '@bank/eventstore';
import type { KeyringKey } from '@bank/platform';

export class SeedStream<C, E extends DomainEventLike, S> {
  readonly events: NewEvent[] = [];
  private state: S;
  private lastHash: string | null = null;

  constructor(
    readonly stream: string,
    private readonly decider: Decider<C, E, S>,
    private readonly chainKey: KeyringKey | undefined,
  ) {
    this.state = decider.initialState;
  }

  /** Decides `command` on the stream as it stands and chains what it yields; a refusal throws (a bug in the plan). */
  command(command: C, context: CommandContext, at: string): void {
    this.decide((state) => this.decider.decide(command, state), context, at);
  }

  /** Chains what `decide` yields on the stream as it stands, as one command's events (one context, one `at`). */
  decide(decide: (state: S) => readonly E[], context: CommandContext, at: string): void {
    const decided = decide(this.state);
    if (decided.length === 0) return;
    for (const event of decided) this.state = this.decider.evolve(this.state, event);
    const revision = this.events.length === 0 ? undefined : BigInt(this.events.length - 1);
    const chained = toNewEvents(this.stream, decided, { revision, lastHash: this.lastHash }, context, new Date(at), this.chainKey);
    const hash = chained.at(-1)?.metadata?.hash;
    this.lastHash = typeof hash === 'string' ? hash : null;
    for (const event of chained) this.events.push(event);
  }
}

/** Where a generated bank's streams go, each handed over whole (in one call) as a new stream. */
export interface SeedSink {
  /** Stores `events` as the whole of the new stream `stream`; answers the position of its last event. */
  append(stream: string, events: readonly NewEvent[]): Promise<Position | undefined>;
}

/** The store's own appends (appendStream): restartable, into a store that may hold events already. */
export function storeSink(store: EventStore, chunk: number): SeedSink {
  return { append: (stream, events) => appendStream(store, stream, events, chunk) };
}

/**
 * Appends a whole stream in chunks, each with the revision the previous one left; answers the last one's position. Event ids derive from the seed
 * (command ids), so a restarted load appends ids already stored: the store answers those appends without storing
 * anything (idempotent by id) and carries on where the last run stopped.
 */
export async function appendStream(store: EventStore, stream: string, events: readonly NewEvent[], chunk: number): Promise<Position | undefined> {
  let expected: 'no_stream' | bigint = 'no_stream';
  let position: Position | undefined;
  for (let start = 0; start < events.length; start += chunk) {
    const result = await store.append(stream, events.slice(start, start + chunk), expected);
    expected = result.nextExpectedRevision;
    position = result.position;
  }
  return position;
}

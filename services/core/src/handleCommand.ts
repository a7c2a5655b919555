import { randomUUID } from 'node:crypto';
import {
  isWrongExpectedVersion,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
} from '@bank/eventstore';
import { chainHash } from './hashChain';
import { deterministicId } from './deterministicId';

/** The least a domain event needs to be stored. */
export interface DomainEventLike {
  readonly type: string;
  readonly data: object;
}

export interface StreamState<S> {
  readonly state: S;
  /** Revision of the last event, undefined for an empty stream. */
  readonly revision: bigint | undefined;
  readonly lastHash: string | null;
  readonly events: readonly RecordedEvent[];
}

/** Reads a stream and folds it into state. */
export async function loadStream<S, E extends DomainEventLike>(
  store: EventStore,
  streamId: string,
  evolve: (state: S, event: E) => S,
  initialState: S,
): Promise<StreamState<S>> {
  const events = await store.readStream(streamId);
  let state = initialState;
  for (const event of events) state = evolve(state, { type: event.type, data: event.data } as unknown as E);
  const last = events.at(-1);
  return {
    state,
    revision: last?.revision,
    lastHash: typeof last?.metadata.hash === 'string' ? last.metadata.hash : null,
    events,
  };
}

export interface CommandContext {
  /** Who acts: copied into every event's metadata. */
  readonly metadata: Omit<EventMetadata, 'hash' | 'prevHash'>;
  /**
   * A stable id for this command (e.g. derived from an idempotency key). When given, event ids derive from it,
   * so a retried command re-appends the same ids and the store ignores them.
   */
  readonly commandId?: string;
}

export interface HandleCommandOptions<S, E extends DomainEventLike> {
  readonly store: EventStore;
  readonly streamId: string;
  readonly evolve: (state: S, event: E) => S;
  readonly initialState: S;
  /** Decides with the current state; returns the events to append (none = nothing to do) or throws a domain error. */
  readonly decide: (state: S, stream: StreamState<S>) => readonly E[];
  readonly context: CommandContext;
  /** Attempts on a concurrency conflict before giving up with the WrongExpectedVersionError (default 5). */
  readonly maxAttempts?: number;
  readonly now?: () => Date;
}

export interface CommandResult<S, E> {
  readonly state: S;
  readonly events: readonly E[];
  /** Position of the last appended event; undefined when nothing was appended. */
  readonly position: Position | undefined;
  readonly revision: bigint | undefined;
}

/** Wraps domain events for the store: ids, metadata and the hash chain continuing from the stream's last event. */
export function toNewEvents(
  streamId: string,
  events: readonly DomainEventLike[],
  after: { revision: bigint | undefined; lastHash: string | null },
  context: CommandContext,
  now: Date,
): NewEvent[] {
  let prevHash = after.lastHash;
  let revision = after.revision === undefined ? 0n : after.revision + 1n;
  return events.map((event, index) => {
    const id = context.commandId ? deterministicId(`${context.commandId}:${streamId}:${index}`) : randomUUID();
    const base: EventMetadata = { ...context.metadata, occurredAt: now.toISOString(), prevHash };
    const data = JSON.parse(JSON.stringify(event.data)) as Record<string, unknown>;
    const hash = chainHash({ streamId, revision, id, type: event.type, data, metadata: base }, prevHash);
    prevHash = hash;
    revision += 1n;
    return { id, type: event.type, data, metadata: { ...base, hash } };
  });
}

/**
 * Load → decide → append with the expected revision; on a concurrency conflict, re-read and decide again,
 * a bounded number of times. Domain errors thrown by `decide` propagate unchanged.
 */
export async function handleCommand<S, E extends DomainEventLike>(options: HandleCommandOptions<S, E>): Promise<CommandResult<S, E>> {
  const { store, streamId, evolve, initialState, decide, context } = options;
  const maxAttempts = options.maxAttempts ?? 5;
  for (let attempt = 1; ; attempt += 1) {
    const stream = await loadStream(store, streamId, evolve, initialState);
    const events = decide(stream.state, stream);
    if (events.length === 0) return { state: stream.state, events, position: undefined, revision: stream.revision };
    const toAppend = toNewEvents(streamId, events, stream, context, options.now?.() ?? new Date());
    try {
      const result = await store.append(streamId, toAppend, stream.revision === undefined ? 'no_stream' : stream.revision);
      const state = events.reduce(evolve, stream.state);
      return { state, events, position: result.position, revision: result.nextExpectedRevision };
    } catch (error) {
      if (!isWrongExpectedVersion(error) || attempt >= maxAttempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(5 * 2 ** attempt, 100) * Math.random()));
    }
  }
}

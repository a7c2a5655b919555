/**
 * The event-store port. Both adapters (PostgreSQL, EventStoreDB) implement it and pass one conformance suite.
 *
 * Revision convention (EventStoreDB's): a stream's revision is the 0-based index of its last event;
 * an empty or missing stream has no revision. `expectedRevision` is one of:
 *   'any'        no check;
 *   'no_stream'  the stream must not exist yet;
 *   'exists'     the stream must have at least one event;
 *   bigint       the revision of the stream's last event must be exactly this.
 *
 * Idempotency (what makes a retried command safe): an append whose event ids are ALL already stored in the stream
 * stores nothing and returns the stored result (the revision and position of the last of those events), whatever
 * the expected revision: the original one, the stream's current revision (a retry that re-read the stream), 'any'
 * or 'exists', also after other writers moved the stream on. An append of which only SOME ids are stored appends
 * the others as new events, under the expected-revision check (a retry with a stale revision is then a conflict).
 * The EventStoreDB adapter looks for the ids among the stream's last `idempotencyWindow` events (see
 * docs/eventstore.md); PostgreSQL looks in the whole stream.
 *
 * Deleted streams: the port has no delete, the bank never deletes a stream. A stream an operator deleted for good
 * (EventStoreDB's tombstone; `tombstoneStream` on PostgreSQL) reads as missing (`readStream` returns []), keeps its
 * events in the global log (no deletion marker is shown), and every append to it fails with StreamDeletedError,
 * retries included: it is not a conflict and never succeeds.
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'exists' | bigint;

/**
 * A position in the global log. Totally ordered; compare with `comparePositions`.
 * PostgreSQL: commit = transaction id (xid8), prepare = global sequence number.
 * EventStoreDB: commit/prepare as the server reports them.
 */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

/** Metadata carried by every event. */
/**
 * Metadata stored beside an event. The store gives no field a meaning; these are the usual ones (who acted, in what
 * role, for which request and workflow). The bank's own vocabulary (its roles) lives with its command layer.
 */
export interface EventMetadata {
  readonly actorId?: string;
  readonly actorRole?: string;
  readonly requestId?: string;
  readonly correlationId?: string;
  readonly causationId?: string;
  readonly [key: string]: unknown;
}

/** An event as handed to `append`. */
export interface NewEvent {
  /** UUID; appending an id already stored in the same stream is a no-op. */
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly metadata?: EventMetadata;
}

/** An event as read back. */
export interface RecordedEvent {
  readonly id: string;
  readonly streamId: string;
  readonly revision: bigint;
  readonly position: Position;
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly metadata: EventMetadata;
  readonly created: Date;
}

export interface AppendResult {
  /** Revision of the last event appended (of the last already-stored one for a retry): the next expected revision. */
  readonly nextExpectedRevision: bigint;
  /** Position of the last event appended (or of the last already-stored duplicate). */
  readonly position: Position;
  /**
   * True when every event id was stored already and nothing was written (a retry), where the store can tell (the
   * PostgreSQL adapter); absent otherwise. The revisions alone cannot tell it when a stale writer's expected revision
   * happens to end where the stored duplicate ends.
   */
  readonly duplicate?: boolean;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Omit for the start. */
  readonly after?: Position;
  readonly limit?: number;
}

/**
 * A read of the log as it stood at an instant (readRecorded): in position order after `after`, the events recorded
 * at or before `atOrBefore` (`created`, at its millisecond), of `eventTypes` only when given, ending at the first
 * event of any type recorded after `endAfter` (≥ `atOrBefore`). Events recorded between the two instants are skipped
 * by the store: the log's order is not quite its instants' order, so a replay to an instant reads on for a margin
 * but wants nothing recorded after the instant.
 */
export interface ReadRecordedOptions {
  /** Exclusive: events strictly after this position. Omit for the start. */
  readonly after?: Position;
  readonly limit?: number;
  readonly atOrBefore: Date;
  readonly endAfter: Date;
  readonly eventTypes?: readonly string[];
}

/**
 * A read of about a day of the log as it stood at an instant (readRecordedSince): every event after `after` (in the
 * log's order) recorded at or before `atOrBefore` (`created`, at its millisecond), of `eventTypes`, in ONE answer and
 * in no particular order. The log's order and its instants disagree by at most `clockMarginMs` (an append that waited
 * for a stream's lock is ordered after appends that started later), so the store looks only at the events recorded
 * from `after`'s own instant (or `recordedFrom`, when earlier) less the margin up to `atOrBefore`: what was recorded
 * after the instant is neither read nor sent. The answer is held whole in memory: for replays from a day's close, not for the whole log.
 */
export interface ReadRecordedSinceOptions {
  /** Exclusive: events strictly after this position (an event's position: its instant bounds the read). */
  readonly after: Position;
  /**
   * Inclusive: an upper bound in the log's order that the caller knows (no event recorded at or before `atOrBefore`
   * lies after it: a day close recorded more than the margin after the instant). With it, the store also bounds the
   * read by position: of the events recorded in the window, only those between the two positions are looked at.
   */
  readonly upTo?: Position;
  readonly atOrBefore: Date;
  /** How far the log's order may be behind its instants, in ms (≥ 0). */
  readonly clockMarginMs: number;
  readonly eventTypes: readonly string[];
  /**
   * An instant the log after `after` is known to have been recorded from, as a day close states it: the store looks
   * from the earlier of it and `after`'s own instant (less the margin), so that neither a position recorded late nor
   * a close stating a late instant hides the events after it.
   */
  readonly recordedFrom?: Date;
  /**
   * When given, each event's metadata holds only these keys (plain names), those it has: the rest is neither sent nor
   * decoded (a replay that needs the schema version alone, not the hash chain's fields).
   */
  readonly metadataKeys?: readonly string[];
}

/** One page of readRecorded: `ended` once the read met an event recorded after `endAfter` or the end of the log. */
export interface RecordedPage {
  readonly events: RecordedEvent[];
  readonly ended: boolean;
}

export interface SubscribeOptions {
  /** Exclusive start: deliver events strictly after this position. Omit for the start of the log. */
  readonly after?: Position;
  /** Called once, when the subscription has delivered everything stored when it caught up. */
  readonly onCaughtUp?: () => void;
  /**
   * Only events of these types are delivered (exactly these names; omit for every event). The store filters where
   * it reads (PostgreSQL in its query, EventStoreDB with a server-side event-type filter), so a subscriber that
   * wants a few types of a long log neither fetches nor decodes the others.
   */
  readonly eventTypes?: readonly string[];
  /**
   * Called with a position up to which the subscription has looked at the log (the events it filtered out
   * included), once the events it delivered before that position were handled, so that a filtered subscriber's
   * checkpoint can move past a long run of events it does not want. Positions only grow and are never beyond an
   * event not yet delivered. PostgreSQL calls it after every read that moved (at the latest when it catches up,
   * with the visible head); EventStoreDB when its filter reports a checkpoint, which may be rarer.
   */
  readonly onProgress?: (position: Position) => void;
  /**
   * Called once when the subscription stops with an error it cannot recover from: a throwing handler, or a store
   * error that retrying cannot heal (e.g. access denied, a start position that is not an event's). Dropped
   * connections and unavailable servers are retried with backoff instead.
   */
  readonly onError?: (error: unknown) => void;
}

/** What a subscription's handler is given besides the event: a way to end its own subscription. */
export interface SubscriptionSelf {
  /**
   * Ends this subscription from inside its handler: no event after this one is delivered. It does not wait (the
   * handler in progress is the caller); `done` resolves once the handler has returned.
   */
  stop(): void;
}

export type SubscriptionHandler = (event: RecordedEvent, self: SubscriptionSelf) => Promise<void> | void;

/**
 * A running subscription. The handler is awaited for each event before the next is delivered
 * (backpressure); a handler that throws stops the subscription and reports through onError.
 */
export interface Subscription {
  /**
   * Stops it; resolves once the loop has ended, after the handler in progress has returned. So a handler never
   * awaits it (it would wait for itself): a handler ends its own subscription with the `self.stop()` it is given.
   */
  stop(): Promise<void>;
  /** Resolves when the subscription has stopped (by stop() or an error). */
  readonly done: Promise<void>;
}

export interface StreamEventCount {
  readonly fromRevision?: bigint;
  readonly toRevision: bigint;
  readonly types: readonly string[];
}

export interface LastStreamEvent {
  readonly toRevision?: bigint;
  readonly types?: readonly string[];
  readonly dataContains?: Readonly<Record<string, string | number | boolean>>;
}

/** What `streamTails` answers for a stream: its last event, and its last event matching each of the queries. */
export interface StreamTail {
  readonly last: RecordedEvent;
  /** One per query of `streamTails`, in order: the stream's last event whose data contains it, or undefined. */
  readonly matches: readonly (RecordedEvent | undefined)[];
}

/** One stream's append in `appendMany`. */
export interface StreamAppend {
  readonly stream: string;
  readonly events: readonly NewEvent[];
  readonly expectedRevision: ExpectedRevision;
}

/** One append's outcome in `appendMany`: nothing is thrown for a conflict or a deleted stream, the caller decides. */
export type StreamAppendOutcome =
  | { readonly kind: 'appended' | 'duplicate'; readonly nextExpectedRevision: bigint; readonly position: Position }
  | { readonly kind: 'conflict'; readonly actualRevision: bigint | undefined }
  | { readonly kind: 'deleted' };

/** Every method but positionToken rejects (subscribe throws) with EventStoreClosedError once close() was called. */
export interface EventStore {
  /**
   * Appends atomically, or throws WrongExpectedVersionError (nothing stored) or StreamDeletedError. Idempotent by
   * event id, see above.
   */
  append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /** Every event of the stream in revision order; an empty array for a missing or deleted stream. */
  readStream(stream: string, options?: { fromRevision?: bigint; limit?: number }): Promise<RecordedEvent[]>;
  /**
   * One event of a stream by its id, undefined when the stream holds none (or is deleted). Where the store can find
   * it without reading the stream (PostgreSQL: its (stream, event id) key); absent otherwise (`readEventById` falls
   * back to reading the stream).
   */
  readEvent?(stream: string, eventId: string): Promise<RecordedEvent | undefined>;
  /**
   * Events of the global log in position order, after `after`, at most `limit` (default 1000); fewer only when the
   * log as readers see it ends there (a rebuild's load takes a short page for the head: bulkLoad.ts).
   */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catch-up then live; every event exactly once, in position order. */
  subscribe(handler: SubscriptionHandler, options?: SubscribeOptions): Subscription;
  /** Position of the last event committed and visible to readers, or undefined for an empty log. */
  headPosition(): Promise<Position | undefined>;
  /**
   * The last revision of every stream as the store's own stream index records it (a tombstoned stream included),
   * where the store keeps such an index apart from the events (PostgreSQL: its `streams` table); absent otherwise.
   * Verification compares it with the events, to notice the end of a stream cut off with its index left behind.
   */
  streamHeads?(): Promise<ReadonlyMap<string, bigint>>;
  /**
   * How many events of the stream, with a revision from `fromRevision` (default 0) to `toRevision` (inclusive),
   * have one of `types`; 0 for a missing or deleted stream. Where the store answers from its own index without
   * sending the events (PostgreSQL); absent otherwise. Lets a reader of a long stream count without reading it.
   */
  countStreamEvents?(stream: string, query: StreamEventCount): Promise<number>;
  /**
   * The stream's last event at or before `toRevision` (default: its end) whose type is one of `types` (default:
   * any) and whose data contains `dataContains` (JSON containment: those fields with those values); undefined when
   * none, or for a missing or deleted stream. Where the store finds it from its own index, reading backwards from
   * `toRevision` (PostgreSQL); absent otherwise.
   */
  lastStreamEvent?(stream: string, query?: LastStreamEvent): Promise<RecordedEvent | undefined>;
  /**
   * For many streams in one read: each stream's last event and, for each of `dataContains` (JSON containment), its
   * last event whose data contains those fields; a missing or deleted stream is absent from the map. Where the
   * store finds them from its own index in one query (PostgreSQL); absent otherwise. Lets a bulk writer decide on
   * the tails of many streams without one round trip each (the month end's interest payments).
   */
  streamTails?(streams: readonly string[], dataContains?: readonly Readonly<Record<string, string | number | boolean>>[]): Promise<ReadonlyMap<string, StreamTail>>;
  /**
   * Several streams' appends in one round trip and one transaction, each as `append` would do it on its own, in
   * order (a later append to a stream sees an earlier one of the same call), each with its own outcome: a conflict
   * or a deleted stream stores nothing for that append and does not stop the others. Idempotent by event id as
   * `append` ('duplicate'). PostgreSQL only; absent otherwise.
   */
  appendMany?(appends: readonly StreamAppend[]): Promise<StreamAppendOutcome[]>;
  /**
   * The log as it stood at an instant, one page (see ReadRecordedOptions): at most `limit` (default 1000) events;
   * the next page starts after the last event of this one, unless `ended`. Where the store filters as it reads, so
   * that the events skipped are neither sent nor decoded (PostgreSQL); absent otherwise.
   */
  readRecorded?(options: ReadRecordedOptions): Promise<RecordedPage>;
  /**
   * The log after a position as it stood at an instant, of some types, whole and unordered (see
   * ReadRecordedSinceOptions). Where the store can find events by their instant without walking the log from the
   * position (PostgreSQL: a BRIN index on `created`); absent otherwise.
   */
  readRecordedSince?(options: ReadRecordedSinceOptions): Promise<RecordedEvent[]>;
  /**
   * The single decimal number the HTTP edge shows for a position (`X-Event-Position: N`): on PostgreSQL the
   * event's global sequence number, on EventStoreDB its commit position.
   */
  positionToken(position: Position): string;
  /**
   * The full position behind a token, or undefined when no event of ours is stored there (yet): a token that is
   * not a number, out of range, or not the position of an event (e.g. inside an EventStoreDB record) is undefined,
   * never an error; tokens come from HTTP headers.
   */
  resolvePositionToken(token: string): Promise<Position | undefined>;
  /** Stops every subscription and releases the store's resources; calling it again does nothing more. */
  close(): Promise<void>;
}

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** `"<commit>:<prepare>"` with both parts zero-padded to 20 digits, so string order equals position order. */
export function formatPosition(p: Position): string {
  return `${p.commit.toString().padStart(20, '0')}:${p.prepare.toString().padStart(20, '0')}`;
}

export function parsePosition(text: string): Position {
  const match = /^(\d{1,20}):(\d{1,20})$/.exec(text.trim());
  if (!match) throw new Error(`Not an event-store position: ${JSON.stringify(text)}`);
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
}

/** One event of a stream by its id: `readEvent` where the store has it, else found by reading the stream. */
export async function readEventById(store: EventStore, stream: string, eventId: string): Promise<RecordedEvent | undefined> {
  if (store.readEvent) return store.readEvent(stream, eventId);
  return (await store.readStream(stream)).find((event) => event.id === eventId);
}

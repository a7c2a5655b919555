import type { AppendExpectedRevision, AppendResult as EsdbAppendResult } from '@eventstore/db-client';
import { WrongExpectedVersionError } from '../errors';
import type { AppendResult, ExpectedRevision, NewEvent, RecordedEvent } from '../eventStore';
import { isEsdbWrongExpectedVersion, toPortError } from './esdbErrors';
import { appendOutcome, serverExpectation, toEsdbExpectedRevision, type EsdbAppendOutcome } from './esdbMapping';

/** What the append needs of the server (esdbEventStore.ts builds it on the client). */
export interface EsdbAppendIo {
  /** The stream's last `count` events, oldest first; [] for a missing stream; our StreamDeletedError for a tombstoned one. */
  readTail(stream: string, count: number): Promise<RecordedEvent[]>;
  /** At most `count` events from revision `from` on, oldest first. */
  readFrom(stream: string, from: bigint, count: number): Promise<RecordedEvent[]>;
  /** appendToStream: resolves with the client's result or throws the client's error. */
  write(stream: string, events: readonly NewEvent[], expected: AppendExpectedRevision): Promise<EsdbAppendResult>;
}

export interface EsdbAppendSettings {
  /** How many of the stream's last events are searched for the ids of a retried append. */
  readonly idempotencyWindow: number;
  /** Attempts of an 'any' or 'exists' append that other writers keep overtaking, before it gives up with a conflict. */
  readonly maxAttempts: number;
}

const idKey = (id: string) => id.toLowerCase();

/**
 * Which of `events` are among `recorded` (events of the stream), and when all are, the stored result: the revision
 * and position of the last of them, as the first append returned it.
 */
export function storedAppend(events: readonly NewEvent[], recorded: readonly RecordedEvent[]): { result?: AppendResult; storedIds: ReadonlySet<string> } {
  const wanted = new Set(events.map((event) => idKey(event.id)));
  const found = recorded.filter((event) => wanted.has(idKey(event.id)));
  const storedIds = new Set(found.map((event) => idKey(event.id)));
  if (storedIds.size < wanted.size) return { storedIds };
  const last = found.reduce((latest, event) => (event.revision > latest.revision ? event : latest));
  return { storedIds, result: { nextExpectedRevision: last.revision, position: last.position } };
}

/**
 * The events of one append are stored at consecutive revisions. When the tail holds only the later events of ours, the
 * earlier ones can only be just before the tail: event k found at revision r puts event 0 at r - k. The revisions to
 * read, or undefined when the tail already starts there (or holds none of ours: nothing to extend from).
 */
export function earlierPart(events: readonly NewEvent[], tail: readonly RecordedEvent[]): { from: bigint; count: number } | undefined {
  const first = tail[0];
  if (!first) return undefined;
  const indexOf = new Map(events.map((event, index) => [idKey(event.id), BigInt(index)]));
  let start: bigint | undefined;
  for (const event of tail) {
    const index = indexOf.get(idKey(event.id));
    if (index === undefined) continue;
    const candidate = event.revision - index;
    if (start === undefined || candidate < start) start = candidate;
  }
  if (start === undefined) return undefined;
  if (start < 0n) start = 0n;
  return start < first.revision ? { from: start, count: Number(first.revision - start) } : undefined;
}

async function findStored(io: EsdbAppendIo, stream: string, tail: readonly RecordedEvent[], events: readonly NewEvent[]) {
  const stored = storedAppend(events, tail);
  if (stored.result || stored.storedIds.size === 0) return stored;
  const earlier = earlierPart(events, tail);
  if (!earlier) return stored;
  return storedAppend(events, [...(await io.readFrom(stream, earlier.from, earlier.count)), ...tail]);
}

/**
 * The port's result for a write the server accepted. The server answers a batch with the position where the append
 * begins (its WriteEventsCompleted carries the commit position twice) and a retry it recognised itself with none,
 * while the port returns the position of the last event: read it then.
 */
async function appendedResult(
  io: EsdbAppendIo,
  stream: string,
  written: readonly NewEvent[],
  outcome: Extract<EsdbAppendOutcome, { kind: 'appended' }>,
): Promise<AppendResult> {
  if (outcome.position && written.length === 1) return { nextExpectedRevision: outcome.nextExpectedRevision, position: outcome.position };
  const lastId = idKey(written[written.length - 1]!.id);
  const [last] = await io.readFrom(stream, outcome.nextExpectedRevision, 1);
  if (!last || idKey(last.id) !== lastId) {
    throw new Error(`EventStoreDB reported event ${lastId} of ${stream} at revision ${outcome.nextExpectedRevision}, which holds ${last?.id ?? 'nothing'}`);
  }
  return { nextExpectedRevision: last.revision, position: last.position };
}

/**
 * The port's append on EventStoreDB, idempotent by event id whatever the expected revision (eventStore.ts):
 *
 * 1. Read the stream's tail (`idempotencyWindow` events). When every id of the append is there, return the stored
 *    result and write nothing. The server alone would not: it compares ids only at the revisions after an expected
 *    revision below the stream's, and for 'any'/'exists' only in a cache that restarts and evictions empty; with the
 *    stream's current revision it appends again.
 * 2. When some ids are there (a partly stored append), write only the others, under the caller's expectation.
 * 3. Write, sending 'any' and 'exists' as the revision just read (serverExpectation), so that nothing is written
 *    between the check and the write without the write failing.
 * 4. On a conflict, check the tail again: the ids may have been stored meanwhile (by a concurrent copy of this
 *    append, or the server's own "partly idempotent" answer is a conflict too), and then the stored result is
 *    returned. Otherwise the caller's expectation failed (WrongExpectedVersionError with the actual revision) or,
 *    for 'any'/'exists', another writer got in first and the append starts over.
 */
export async function appendToEsdb(
  io: EsdbAppendIo,
  stream: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
  settings: EsdbAppendSettings,
): Promise<AppendResult> {
  toEsdbExpectedRevision(expected); // refuses a negative or unknown expectation before anything is read
  for (let attempt = 1; ; attempt += 1) {
    const tail = await io.readTail(stream, settings.idempotencyWindow);
    const stored = await findStored(io, stream, tail, events);
    if (stored.result) return stored.result;
    const pending = events.filter((event) => !stored.storedIds.has(idKey(event.id)));
    const { send, retryOnConflict } = serverExpectation(expected, tail[tail.length - 1]?.revision);

    let outcome: EsdbAppendOutcome;
    try {
      outcome = appendOutcome(await io.write(stream, pending, send));
    } catch (error) {
      if (!isEsdbWrongExpectedVersion(error)) throw toPortError(error, stream, expected);
      outcome = { kind: 'conflict' };
    }
    if (outcome.kind === 'appended') return appendedResult(io, stream, pending, outcome);

    if (retryOnConflict && attempt < settings.maxAttempts) continue;
    const after = await io.readTail(stream, settings.idempotencyWindow);
    const again = await findStored(io, stream, after, events);
    if (again.result) return again.result;
    throw new WrongExpectedVersionError(stream, expected, after[after.length - 1]?.revision);
  }
}

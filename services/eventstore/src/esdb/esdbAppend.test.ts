import { ANY, ErrorType, NO_STREAM, STREAM_EXISTS, type AppendExpectedRevision } from '@eventstore/db-client';
import { beforeEach, describe, expect, it } from 'vitest';
import { newEvent, newEvents } from '../conformance/conformanceHelpers';
import { StreamDeletedError, WrongExpectedVersionError } from '../errors';
import type { AppendResult, ExpectedRevision, NewEvent } from '../eventStore';
import { appendToEsdb, earlierPart, storedAppend } from './esdbAppend';
import { EsdbServerModel } from './esdbServerModel';

const WINDOW = 8;
let server: EsdbServerModel;
const append = (stream: string, events: readonly NewEvent[], expected: ExpectedRevision, window = WINDOW) =>
  appendToEsdb(server, stream, events, expected, { idempotencyWindow: window, maxAttempts: 5 });
const ids = (stream: string) => server.events(stream).map((event) => event.id);
const idsOf = (events: readonly NewEvent[]) => events.map((event) => event.id);

/** What the port promises a retry returns: the revision and position of the last of the append's events. */
function storedResultOf(stream: string, events: readonly NewEvent[]): AppendResult {
  const last = server.events(stream).find((event) => event.id === events.at(-1)!.id)!;
  return { nextExpectedRevision: last.revision, position: last.position };
}

/** Stores `events` but loses the answer, as a command whose commit succeeded and whose reply did not arrive. */
async function appendWithLostAnswer(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<void> {
  server.loseNextAnswer();
  await expect(append(stream, events, expected)).rejects.toMatchObject({ type: ErrorType.UNAVAILABLE });
}

beforeEach(() => {
  server = new EsdbServerModel();
});

describe('the server rules alone (what the adapter must close)', () => {
  const direct = (stream: string, events: readonly NewEvent[], expected: AppendExpectedRevision) => server.write(stream, events, expected);

  it('store a retry that carries the stream current revision a second time', async () => {
    const events = newEvents(2);
    const first = await direct('s', events, NO_STREAM);
    await direct('s', events, first.nextExpectedRevision);
    expect(ids('s')).toEqual([...idsOf(events), ...idsOf(events)]);
  });

  it("store a retry expecting 'any' or 'exists' a second time once the id cache is empty", async () => {
    await direct('s', newEvents(1), NO_STREAM);
    const events = newEvents(2);
    await direct('s', events, ANY);
    server.restart();
    await direct('s', events, ANY);
    server.restart();
    await direct('s', events, STREAM_EXISTS);
    expect(ids('s')).toHaveLength(7);
  });
});

describe('appendToEsdb', () => {
  it("returns the stored result for a retry expecting the stream's current revision, writing nothing", async () => {
    await append('s', newEvents(1), 'no_stream');
    const events = newEvents(2);
    await appendWithLostAnswer('s', events, 0n);
    const writes = server.writes.length;

    const retry = await append('s', events, 2n);

    expect(retry).toEqual(storedResultOf('s', events));
    expect(ids('s')).toHaveLength(3);
    expect(server.writes).toHaveLength(writes);
  });

  for (const expected of ['any', 'exists'] as const) {
    it(`returns the stored result for a retry expecting '${expected}' after the server forgot its ids`, async () => {
      await append('s', newEvents(1), 'no_stream');
      const events = newEvents(2);
      await appendWithLostAnswer('s', events, expected);
      server.restart();

      await expect(append('s', events, expected)).resolves.toEqual(storedResultOf('s', events));
      expect(ids('s')).toHaveLength(3);
    });
  }

  it('returns the stored result for every retry after another writer moved the stream on', async () => {
    await append('s', newEvents(1), 'no_stream');
    const ours = newEvents(2);
    await appendWithLostAnswer('s', ours, 0n);
    await append('s', newEvents(3), 2n);
    server.restart();

    for (const expected of [0n, 5n, 'any', 'exists', 'no_stream'] as ExpectedRevision[]) {
      await expect(append('s', ours, expected), String(expected)).resolves.toEqual(storedResultOf('s', ours));
    }
    expect(ids('s')).toHaveLength(6);
  });

  it('returns the same result as the first append, with the position of its last event', async () => {
    const events = newEvents(3);

    const first = await append('s', events, 'no_stream');
    const retry = await append('s', events, 'any');

    expect(first).toEqual(storedResultOf('s', events));
    expect(retry).toEqual(first);
    // The server answered the batch with the position where it begins, which is the first event's.
    expect(first.position).not.toEqual(server.events('s')[0]!.position);
  });

  it('writes only the events not stored yet when a retry brings new ones, under the caller expectation', async () => {
    const first = newEvent('First');
    const second = newEvent('Second');
    await append('s', [first], 'no_stream');

    const result = await append('s', [first, second], 0n);

    expect(result).toEqual(storedResultOf('s', [second]));
    expect(ids('s')).toEqual([first.id, second.id]);
    expect(server.writes.at(-1)?.ids).toEqual([second.id]);
  });

  it('reports a conflict, storing nothing, for a partly stored append whose expectation no longer holds', async () => {
    const first = newEvent('First');
    await append('s', [first], 'no_stream');

    await expect(append('s', [first, newEvent('Second')], 'no_stream')).rejects.toMatchObject({ streamId: 's', expected: 'no_stream', actual: 0n });
    expect(ids('s')).toEqual([first.id]);
  });

  it('reads the earlier events of an append just before the tail when the window cut through them', async () => {
    const ours = newEvents(3);
    await append('s', ours, 'no_stream');
    await append('s', newEvents(WINDOW - 1), 2n);

    await expect(append('s', ours, 'any')).resolves.toEqual(storedResultOf('s', ours));
    expect(ids('s')).toHaveLength(3 + WINDOW - 1);
  });

  it('does not recognise a retry whose events are further back than idempotencyWindow events', async () => {
    const ours = newEvents(1);
    await append('s', ours, 'no_stream');
    await append('s', newEvents(WINDOW), 0n);

    await append('s', ours, 'any');

    expect(ids('s').filter((id) => id === ours[0]!.id)).toHaveLength(2);
  });

  it('returns the stored result when a concurrent copy of the same append got in first, behind another writer', async () => {
    await append('s', newEvents(1), 'no_stream');
    const events = newEvents(2);
    server.beforeNextWrite(async () => {
      await server.write('s', newEvents(1), 0n);
      await server.write('s', events, 1n);
    });

    const result = await append('s', events, 0n);

    expect(result).toEqual(storedResultOf('s', events));
    expect(ids('s')).toHaveLength(4);
  });

  for (const expected of ['any', 'exists'] as const) {
    it(`starts over when another writer gets in between its check and its write, expecting '${expected}'`, async () => {
      await append('s', newEvents(1), 'no_stream');
      const theirs = newEvents(1);
      const ours = newEvents(1);
      server.beforeNextWrite(() => server.write('s', theirs, 0n).then(() => undefined));

      const result = await append('s', ours, expected);

      expect(ids('s')).toEqual([ids('s')[0], theirs[0]!.id, ours[0]!.id]);
      expect(result.nextExpectedRevision).toBe(2n);
      expect(server.writes.filter((write) => write.ids[0] === ours[0]!.id).map((write) => write.expected)).toEqual([0n, 1n]);
    });
  }

  it("gives up with a conflict when other writers overtake an 'any' append maxAttempts times", async () => {
    await append('s', newEvents(1), 'no_stream');
    const overtake = (): void =>
      server.beforeNextWrite(async () => {
        await server.write('s', newEvents(1), ANY);
        overtake();
      });
    overtake();

    await expect(append('s', newEvents(1), 'any')).rejects.toBeInstanceOf(WrongExpectedVersionError);
  });

  it("creates a missing stream for 'any', and refuses 'exists' on it with no actual revision", async () => {
    await expect(append('a', newEvents(1), 'any')).resolves.toMatchObject({ nextExpectedRevision: 0n });
    await expect(append('b', newEvents(1), 'exists')).rejects.toMatchObject({ streamId: 'b', expected: 'exists', actual: undefined });
    expect(server.writes.map((write) => write.expected)).toEqual([NO_STREAM, STREAM_EXISTS]);
  });

  it('reports the caller conflicts with the actual revision', async () => {
    await append('s', newEvents(3), 'no_stream');

    await expect(append('s', newEvents(1), 'no_stream')).rejects.toMatchObject({ expected: 'no_stream', actual: 2n });
    await expect(append('s', newEvents(1), 1n)).rejects.toMatchObject({ expected: 1n, actual: 2n });
    await expect(append('s', newEvents(1), 7n)).rejects.toMatchObject({ expected: 7n, actual: 2n });
    await expect(append('t', newEvents(1), 0n)).rejects.toMatchObject({ streamId: 't', actual: undefined });
    expect(ids('s')).toHaveLength(3);
  });

  it('reads the actual revision of a conflict reported as success: false (throwOnAppendFailure=false), not the 1n the client gives', async () => {
    server.throwOnAppendFailure = false;
    await append('s', newEvents(3), 'no_stream');

    const conflict = await append('s', newEvents(1), 0n).catch((error: unknown) => error);

    expect(conflict).toBeInstanceOf(WrongExpectedVersionError);
    expect(conflict).toMatchObject({ expected: 0n, actual: 2n });
    expect(ids('s')).toHaveLength(3);
  });

  it('refuses appends to a tombstoned stream, retries included, with StreamDeletedError', async () => {
    const events = newEvents(1);
    await append('s', events, 'no_stream');
    server.tombstone('s');

    await expect(append('s', events, 'no_stream')).rejects.toBeInstanceOf(StreamDeletedError);
    await expect(append('s', newEvents(1), 'any')).rejects.toMatchObject({ name: 'StreamDeletedError', streamId: 's' });
  });

  it('maps a tombstone that lands between its check and its write to StreamDeletedError', async () => {
    await append('s', newEvents(1), 'no_stream');
    server.beforeNextWrite(() => server.tombstone('s'));

    await expect(append('s', newEvents(1), 0n)).rejects.toBeInstanceOf(StreamDeletedError);
  });

  it('passes other client errors on unchanged', async () => {
    server.loseNextAnswer();
    await expect(append('s', newEvents(1), 'no_stream')).rejects.toMatchObject({ type: ErrorType.UNAVAILABLE });
  });
});

describe('storedAppend', () => {
  it('returns the last stored event as the result when every id is stored, comparing ids without case', async () => {
    const events = newEvents(2);
    await append('s', events, 'no_stream');
    const upper = events.map((event) => ({ ...event, id: event.id.toUpperCase() }));

    expect(storedAppend(upper, server.events('s')).result).toEqual(storedResultOf('s', events));
    expect(storedAppend([...events, newEvent('New')], server.events('s'))).toEqual({ storedIds: new Set(idsOf(events)) });
  });
});

describe('earlierPart', () => {
  it('names the revisions before the tail where the first events of a cut append must be', async () => {
    const ours = newEvents(4);
    await append('s', ours, 'no_stream');
    await append('s', newEvents(3), 3n);
    const tail = server.events('s').slice(-5); // revisions 2..6: ours[2], ours[3] and three others

    expect(earlierPart(ours, tail)).toEqual({ from: 0n, count: 2 });
    expect(earlierPart(ours, server.events('s'))).toBeUndefined();
    expect(earlierPart(newEvents(2), tail)).toBeUndefined();
  });
});

import { expect, it } from 'vitest';
import { WrongExpectedVersionError } from '../errors';
import type { AppendResult, ExpectedRevision } from '../eventStore';
import { newEvent, newEvents } from './conformanceHelpers';
import type { ConformanceContext } from './eventStoreConformance';

/**
 * A command whose append completed but whose answer was lost is retried: the handler re-reads the stream, decides
 * again and appends the same (deterministic) event ids, with whatever expected revision it now has. Each retry must
 * return the stored result and store nothing.
 */
/** A retry answers the first append's result; a store that can tell (PostgreSQL) also marks it a duplicate. */
function expectRetryOf(retry: AppendResult, first: AppendResult, label?: string): void {
  const { duplicate, ...result } = retry;
  expect(result, label).toEqual(first);
  expect(first.duplicate, label).toBeUndefined();
  expect(duplicate === undefined || duplicate === true, label).toBe(true);
}

export function idempotencyCases(context: ConformanceContext): void {
  const ids = async (stream: string) => (await context.store.readStream(stream)).map((event) => event.id);

  it('stores a retried append once and returns the first result again', async () => {
    const stream = context.streams.next('retry');
    const events = newEvents(2);

    const first = await context.store.append(stream, events, 'no_stream');
    const retry = await context.store.append(stream, events, 'no_stream');

    expectRetryOf(retry, first);
    expect(await ids(stream)).toEqual(events.map((event) => event.id));
  });

  it('stores a retried append expecting a revision once', async () => {
    const stream = context.streams.next('retry_revision');
    await context.store.append(stream, newEvents(1), 'no_stream');
    const event = newEvent('Deposited', { amountCents: 500 });

    const first = await context.store.append(stream, [event], 0n);
    const retry = await context.store.append(stream, [event], 0n);

    expectRetryOf(retry, first);
    expect(await ids(stream)).toHaveLength(2);
  });

  // EventStoreDB checks ids only at the revisions after the expected one: with the stream's current revision it
  // would append the events a second time.
  it("returns the stored result for a retry expecting the stream's current revision, storing nothing", async () => {
    const stream = context.streams.next('retry_current');
    await context.store.append(stream, newEvents(1), 'no_stream');
    const events = newEvents(2, 'Deposited');
    const first = await context.store.append(stream, events, 0n);

    const retry = await context.store.append(stream, events, first.nextExpectedRevision);

    expectRetryOf(retry, first);
    expect(await ids(stream)).toHaveLength(3);
  });

  for (const expected of ['any', 'exists'] as const) {
    // EventStoreDB only remembers recent ids for 'any' and 'exists' in a cache that a restart or eviction empties.
    it(`returns the stored result for a retry expecting '${expected}', storing nothing`, async () => {
      const stream = context.streams.next(`retry_${expected}`);
      await context.store.append(stream, newEvents(1), 'no_stream');
      const events = newEvents(2, 'Deposited');
      const first = await context.store.append(stream, events, expected);

      const retry = await context.store.append(stream, events, expected);

      expectRetryOf(retry, first);
      expect(await ids(stream)).toHaveLength(3);
    });
  }

  it('treats a retry of a completed append as done even after the stream moved on', async () => {
    const stream = context.streams.next('retry_late');
    const opened = newEvent('Opened');
    const later = newEvent('Later');
    const first = await context.store.append(stream, [opened], 'no_stream');
    await context.store.append(stream, [later], 0n);

    const retry = await context.store.append(stream, [opened], 'no_stream');

    expectRetryOf(retry, first);
    expect(await ids(stream)).toEqual([opened.id, later.id]);
  });

  it('returns the stored result for every retry after another writer moved the stream on', async () => {
    const stream = context.streams.next('retry_moved');
    const other = await context.open();
    const opening = newEvents(1, 'Opened');
    await context.store.append(stream, opening, 'no_stream');
    const ours = newEvents(2, 'Transferred');
    const first = await context.store.append(stream, ours, 0n);
    const theirs = newEvents(3, 'Deposited');
    const moved = await other.append(stream, theirs, first.nextExpectedRevision);

    const retries: ExpectedRevision[] = [0n, moved.nextExpectedRevision, 'any', 'exists'];
    for (const expected of retries) {
      expectRetryOf(await context.store.append(stream, ours, expected), first, `retry expecting ${String(expected)}`);
    }

    expect(await ids(stream)).toEqual([...opening, ...ours, ...theirs].map((event) => event.id));
  });

  it('appends only the events whose ids are not stored yet when a retry brings some new ones', async () => {
    const stream = context.streams.next('partial');
    const first = newEvent('First');
    const second = newEvent('Second');
    await context.store.append(stream, [first], 'no_stream');

    const result = await context.store.append(stream, [first, second], 0n);

    expect(result.nextExpectedRevision).toBe(1n);
    expect((await context.store.readStream(stream)).map((event) => [event.id, event.revision])).toEqual([
      [first.id, 0n],
      [second.id, 1n],
    ]);
  });

  it('checks the expected revision for the new events of a partly stored append', async () => {
    const stream = context.streams.next('partial_conflict');
    const first = newEvent('First');
    await context.store.append(stream, [first], 'no_stream');

    await expect(context.store.append(stream, [first, newEvent('Second')], 'no_stream')).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await context.store.readStream(stream)).toHaveLength(1);
  });
}

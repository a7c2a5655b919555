import { expect, it } from 'vitest';
import { WrongExpectedVersionError } from '../errors';
import type { ExpectedRevision } from '../eventStore';
import { newEvent, newEvents } from './conformanceHelpers';
import type { ConformanceContext } from './eventStoreConformance';

async function expectConflict(
  attempt: Promise<unknown>,
  expected: { streamId: string; expected: ExpectedRevision; actual: bigint | undefined },
): Promise<void> {
  const error = await attempt.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(WrongExpectedVersionError);
  const conflict = error as WrongExpectedVersionError;
  expect({ streamId: conflict.streamId, expected: conflict.expected, actual: conflict.actual }).toEqual(expected);
}

export function expectedRevisionCases(context: ConformanceContext): void {
  const revisions = async (stream: string) => (await context.store.readStream(stream)).map((event) => event.revision);

  it('appends expecting any revision to a new stream and to an existing one', async () => {
    const stream = context.streams.next('any');
    await expect(context.store.append(stream, newEvents(1), 'any')).resolves.toMatchObject({ nextExpectedRevision: 0n });
    await expect(context.store.append(stream, newEvents(2), 'any')).resolves.toMatchObject({ nextExpectedRevision: 2n });
    expect(await revisions(stream)).toEqual([0n, 1n, 2n]);
  });

  it('appends expecting no stream when the stream does not exist', async () => {
    const stream = context.streams.next('create');
    await expect(context.store.append(stream, newEvents(1), 'no_stream')).resolves.toMatchObject({ nextExpectedRevision: 0n });
  });

  it('rejects an append expecting no stream when the stream exists, reporting its revision', async () => {
    const stream = context.streams.next('taken');
    await context.store.append(stream, newEvents(2), 'no_stream');
    await expectConflict(context.store.append(stream, newEvents(1), 'no_stream'), { streamId: stream, expected: 'no_stream', actual: 1n });
    expect(await revisions(stream)).toEqual([0n, 1n]);
  });

  it('rejects an append expecting the stream to exist when it does not', async () => {
    const stream = context.streams.next('absent');
    await expectConflict(context.store.append(stream, newEvents(1), 'exists'), { streamId: stream, expected: 'exists', actual: undefined });
    expect(await context.store.readStream(stream)).toEqual([]);
  });

  it('appends expecting the stream to exist when it does', async () => {
    const stream = context.streams.next('present');
    await context.store.append(stream, newEvents(1), 'no_stream');
    await expect(context.store.append(stream, newEvents(1), 'exists')).resolves.toMatchObject({ nextExpectedRevision: 1n });
  });

  it('appends expecting the exact current revision', async () => {
    const stream = context.streams.next('exact');
    const created = await context.store.append(stream, newEvents(3), 'no_stream');
    await expect(context.store.append(stream, newEvents(1), created.nextExpectedRevision)).resolves.toMatchObject({ nextExpectedRevision: 3n });
  });

  it('rejects an append expecting a stale or future revision, reporting the actual revision', async () => {
    const stream = context.streams.next('stale');
    await context.store.append(stream, newEvents(3), 'no_stream');
    await expectConflict(context.store.append(stream, newEvents(1), 1n), { streamId: stream, expected: 1n, actual: 2n });
    await expectConflict(context.store.append(stream, newEvents(1), 7n), { streamId: stream, expected: 7n, actual: 2n });
    expect(await revisions(stream)).toEqual([0n, 1n, 2n]);
  });

  it('rejects an append expecting a revision on a stream that does not exist', async () => {
    const stream = context.streams.next('norevision');
    await expectConflict(context.store.append(stream, newEvents(1), 0n), { streamId: stream, expected: 0n, actual: undefined });
  });

  it('lets exactly one of two concurrent appends with the same expected revision win', async () => {
    for (let round = 0; round < 5; round += 1) {
      const stream = context.streams.next('race');
      await context.store.append(stream, newEvents(1), 'no_stream');
      const contenders = [newEvent('Contender', { side: 'a' }), newEvent('Contender', { side: 'b' })];

      const outcomes = await Promise.allSettled(contenders.map((event) => context.store.append(stream, [event], 0n)));

      const winners = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const losers = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      expect(losers[0]).toBeInstanceOf(WrongExpectedVersionError);
      expect((losers[0] as WrongExpectedVersionError).actual).toBe(1n);
      expect(await revisions(stream)).toEqual([0n, 1n]);
    }
  });

  it('lets exactly one of two concurrent appends expecting no stream create it', async () => {
    const stream = context.streams.next('create_race');
    const outcomes = await Promise.allSettled([context.store.append(stream, newEvents(2), 'no_stream'), context.store.append(stream, newEvents(2), 'no_stream')]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const loser = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(loser?.status === 'rejected' && loser.reason).toBeInstanceOf(WrongExpectedVersionError);
    expect(await revisions(stream)).toEqual([0n, 1n]);
  });
}

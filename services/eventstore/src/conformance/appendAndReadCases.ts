import { expect, it } from 'vitest';
import { comparePositions } from '../eventStore';
import { newEvent, newEvents } from './conformanceHelpers';
import type { ConformanceContext } from './eventStoreConformance';

const CLOCK_TOLERANCE_MS = 5 * 60_000;

export function appendAndReadCases(context: ConformanceContext): void {
  it('reads back appended events with their id, type, data, metadata, revision, position and created date', async () => {
    const stream = context.streams.next('account');
    const opened = newEvent(
      'AccountOpened',
      { owner: 'Ada', balances: { savings: 0, checking: 0 }, tags: ['new'] },
      { actorId: 'user-1', actorRole: 'customer', requestId: 'req-1', correlationId: 'corr-1', causationId: 'cause-1', channel: 'web' },
    );
    const deposited = newEvent('MoneyDeposited', { amountCents: 12_345, note: 'first' });
    const before = Date.now();

    const result = await context.store.append(stream, [opened, deposited], 'no_stream');
    const events = await context.store.readStream(stream);

    expect(result.nextExpectedRevision).toBe(1n);
    expect(events.map((event) => event.id)).toEqual([opened.id, deposited.id]);
    expect(events.map((event) => event.revision)).toEqual([0n, 1n]);
    expect(events.map((event) => event.streamId)).toEqual([stream, stream]);
    expect(events[0]).toMatchObject({ type: 'AccountOpened', data: opened.data, metadata: opened.metadata });
    expect(events[1]).toMatchObject({ type: 'MoneyDeposited', data: deposited.data, metadata: {} });
    for (const event of events) {
      expect(event.created).toBeInstanceOf(Date);
      expect(Math.abs(event.created.getTime() - before)).toBeLessThan(CLOCK_TOLERANCE_MS);
    }
    expect(comparePositions(events[0]!.position, events[1]!.position)).toBeLessThan(0);
    expect(comparePositions(result.position, events[1]!.position)).toBe(0);
  });

  it('returns an empty array when reading a stream that does not exist', async () => {
    await expect(context.store.readStream(context.streams.next('missing'))).resolves.toEqual([]);
  });

  it('reads a stream from a revision, at most a limit of events', async () => {
    const stream = context.streams.next('paged');
    const events = newEvents(6);
    await context.store.append(stream, events, 'no_stream');

    const page = await context.store.readStream(stream, { fromRevision: 2n, limit: 3 });

    expect(page.map((event) => event.revision)).toEqual([2n, 3n, 4n]);
    expect(page.map((event) => event.id)).toEqual(events.slice(2, 5).map((event) => event.id));
  });

  it('numbers the events of successive appends consecutively', async () => {
    const stream = context.streams.next('successive');
    const first = await context.store.append(stream, newEvents(2), 'no_stream');
    const second = await context.store.append(stream, newEvents(3), first.nextExpectedRevision);

    expect(second.nextExpectedRevision).toBe(4n);
    expect(comparePositions(first.position, second.position)).toBeLessThan(0);
    const revisions = (await context.store.readStream(stream)).map((event) => event.revision);
    expect(revisions).toEqual([0n, 1n, 2n, 3n, 4n]);
  });
}

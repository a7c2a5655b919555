import { expect, it } from 'vitest';
import { newEvent, newEvents } from './conformanceHelpers';
import type { ConformanceContext } from './eventStoreConformance';

export function idempotencyCases(context: ConformanceContext): void {
  const ids = async (stream: string) => (await context.store.readStream(stream)).map((event) => event.id);

  it('stores a retried append once and returns the first result again', async () => {
    const stream = context.streams.next('retry');
    const events = newEvents(2);

    const first = await context.store.append(stream, events, 'no_stream');
    const retry = await context.store.append(stream, events, 'no_stream');

    expect(retry).toEqual(first);
    expect(await ids(stream)).toEqual(events.map((event) => event.id));
  });

  it('stores a retried append expecting a revision once', async () => {
    const stream = context.streams.next('retry_revision');
    await context.store.append(stream, newEvents(1), 'no_stream');
    const event = newEvent('Deposited', { amountCents: 500 });

    const first = await context.store.append(stream, [event], 0n);
    const retry = await context.store.append(stream, [event], 0n);

    expect(retry).toEqual(first);
    expect(await ids(stream)).toHaveLength(2);
  });

  it('treats a retry of a completed append as done even after the stream moved on', async () => {
    const stream = context.streams.next('retry_late');
    const opened = newEvent('Opened');
    const later = newEvent('Later');
    const first = await context.store.append(stream, [opened], 'no_stream');
    await context.store.append(stream, [later], 0n);

    const retry = await context.store.append(stream, [opened], 'no_stream');

    expect(retry).toEqual(first);
    expect(await ids(stream)).toEqual([opened.id, later.id]);
  });
}

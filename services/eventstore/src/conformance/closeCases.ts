import { expect, it } from 'vitest';
import { EventStoreClosedError } from '../errors';
import { newEvents } from './conformanceHelpers';
import type { ConformanceContext } from './eventStoreConformance';

export function closeCases(context: ConformanceContext): void {
  it('refuses every call after close(), and a second close() is harmless', async () => {
    const store = await context.open();
    const stream = context.streams.next('closed');
    const { position } = await store.append(stream, newEvents(1), 'no_stream');

    await store.close();
    await store.close();

    await expect(store.append(stream, newEvents(1), 'any')).rejects.toBeInstanceOf(EventStoreClosedError);
    await expect(store.readStream(stream)).rejects.toBeInstanceOf(EventStoreClosedError);
    await expect(store.readAll()).rejects.toBeInstanceOf(EventStoreClosedError);
    await expect(store.headPosition()).rejects.toBeInstanceOf(EventStoreClosedError);
    await expect(store.resolvePositionToken(store.positionToken(position))).rejects.toBeInstanceOf(EventStoreClosedError);
    expect(() => store.subscribe(() => undefined)).toThrow(EventStoreClosedError);
    expect(await context.store.readStream(stream)).toHaveLength(1);
  });
}

import { expect, it } from 'vitest';
import { StreamDeletedError } from '../errors';
import type { ExpectedRevision } from '../eventStore';
import { newEvents, readAllPages, waitUntilVisible } from './conformanceHelpers';
import type { ConformanceContext } from './eventStoreConformance';

const EXPECTATIONS: ExpectedRevision[] = ['any', 'no_stream', 'exists', 0n, 1n];

async function expectDeleted(attempt: Promise<unknown>, stream: string, label: string): Promise<void> {
  const error = await attempt.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error, label).toBeInstanceOf(StreamDeletedError);
  expect((error as StreamDeletedError).streamId).toBe(stream);
}

/** The port has no delete; an operator's tombstone must look the same through both adapters (eventStore.ts). */
export function deletedStreamCases(context: ConformanceContext): void {
  it('reads a tombstoned stream as missing and refuses every append to it, retries included', async () => {
    const stream = context.streams.next('tombstoned');
    const events = newEvents(2);
    await context.store.append(stream, events, 'no_stream');

    await context.tombstone(stream);

    expect(await context.store.readStream(stream)).toEqual([]);
    for (const expected of EXPECTATIONS) {
      await expectDeleted(context.store.append(stream, newEvents(1), expected), stream, `append expecting ${String(expected)}`);
    }
    await expectDeleted(context.store.append(stream, events, 'no_stream'), stream, 'retry of the stored append');
    expect(await context.store.readStream(stream)).toEqual([]);
  });

  it('refuses to create a stream whose name was tombstoned before it had events', async () => {
    const stream = context.streams.next('tombstoned_empty');

    await context.tombstone(stream);

    expect(await context.store.readStream(stream)).toEqual([]);
    await expectDeleted(context.store.append(stream, newEvents(1), 'no_stream'), stream, 'create');
    await expectDeleted(context.store.append(stream, newEvents(1), 'any'), stream, 'append expecting any');
  });

  it('keeps the global log free of deletion markers and other streams unaffected', async () => {
    const start = await context.store.headPosition();
    const deleted = context.streams.next('tombstoned_log');
    const neighbour = context.streams.next('neighbour');
    await context.store.append(deleted, newEvents(2), 'no_stream');
    await context.tombstone(deleted);
    const { position } = await context.store.append(neighbour, newEvents(1), 'no_stream');
    await waitUntilVisible(context.store, position);

    const logged = (await readAllPages(context.store, start, 100)).flat();

    expect(logged.filter((event) => event.type.startsWith('$') || event.streamId.startsWith('$'))).toEqual([]);
    expect(logged.filter((event) => event.streamId === neighbour)).toHaveLength(1);
    expect(await context.store.readStream(neighbour)).toHaveLength(1);
  });
}

import { EventStoreDBClient } from '@eventstore/db-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEventStoreConformance } from '../conformance';
import { newEvents } from '../conformance/conformanceHelpers';
import { EventStoreClosedError } from '../errors';
import { createEsdbEventStore } from './esdbEventStore';
import { toEsdbConnectionString } from './esdbMapping';
import { findEsdbTestServer, startEsdbContainer, type StartedEsdb } from './testing/esdbTestServer';

// The server EVENTSTORE_URL names, else one started in Docker; without either the suite is skipped, saying why.
const server = await findEsdbTestServer();
if (server.kind === 'none') console.warn(server.message);

const CONTAINER_START_TIMEOUT_MS = 300_000; // a first run pulls the image

describe.skipIf(server.kind === 'none')(`EventStoreDB adapter (${server.kind === 'url' ? 'EVENTSTORE_URL' : 'Docker'})`, () => {
  let started: StartedEsdb | undefined;
  let url = server.kind === 'url' ? server.url : '';

  beforeAll(async () => {
    if (server.kind !== 'container') return;
    started = await startEsdbContainer();
    url = started.url;
  }, CONTAINER_START_TIMEOUT_MS);

  afterAll(async () => {
    await started?.stop();
  });

  describeEventStoreConformance('EventStoreDB', async () => {
    const store = createEsdbEventStore({ connectionString: url });
    const admin = EventStoreDBClient.connectionString(toEsdbConnectionString(url));
    return {
      store,
      tombstone: async (stream) => {
        await admin.tombstoneStream(stream);
      },
      cleanup: async () => {
        await Promise.all([store.close(), admin.dispose()]);
      },
    };
  });
});

describe('EventStoreDB event store, without a server', () => {
  const nowhere = 'esdb://127.0.0.1:1?tls=false';

  it('refuses every call after close(), without contacting the server', async () => {
    const store = createEsdbEventStore({ connectionString: nowhere });
    await store.close();
    await store.close();

    await expect(store.append('s', newEvents(1), 'any')).rejects.toBeInstanceOf(EventStoreClosedError);
    await expect(store.readStream('s')).rejects.toBeInstanceOf(EventStoreClosedError);
    await expect(store.readAll()).rejects.toBeInstanceOf(EventStoreClosedError);
    await expect(store.headPosition()).rejects.toBeInstanceOf(EventStoreClosedError);
    await expect(store.resolvePositionToken('42')).rejects.toBeInstanceOf(EventStoreClosedError);
    expect(() => store.subscribe(() => undefined)).toThrow(EventStoreClosedError);
    expect(store.positionToken({ commit: 42n, prepare: 40n })).toBe('42');
  });

  it('refuses an idempotency window that is not a positive integer', () => {
    expect(() => createEsdbEventStore({ connectionString: nowhere, idempotencyWindow: 0 })).toThrow(RangeError);
    expect(() => createEsdbEventStore({ connectionString: nowhere, idempotencyWindow: 2.5 })).toThrow(RangeError);
  });

  it('refuses appends the store could not take before contacting the server', async () => {
    const store = createEsdbEventStore({ connectionString: nowhere });
    try {
      await expect(store.append('s', [], 'any')).rejects.toBeInstanceOf(RangeError);
      await expect(store.append('s', [{ ...newEvents(1)[0]!, id: 'order-17' }], 'any')).rejects.toBeInstanceOf(RangeError);
      await expect(store.append('s', newEvents(1), -1n)).rejects.toBeInstanceOf(RangeError);
    } finally {
      await store.close();
    }
  });
});

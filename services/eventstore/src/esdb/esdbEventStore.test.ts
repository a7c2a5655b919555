import { describe } from 'vitest';
import { describeEventStoreConformance } from '../conformance';
import { createEsdbEventStore } from './esdbEventStore';

const url = process.env.EVENTSTORE_URL;

if (!url) console.warn('EventStoreDB conformance suite skipped: EVENTSTORE_URL is not set');

describe.skipIf(!url)('EventStoreDB adapter (EVENTSTORE_URL)', () => {
  describeEventStoreConformance('EventStoreDB', async () => {
    const store = createEsdbEventStore({ connectionString: url! });
    return { store, cleanup: () => store.close() };
  });
});

import type { EventStore } from '@bank/eventstore';
import { waitUntil } from '@bank/testkit';

/**
 * Test support: waits until the global log reads `expected` events. The PostgreSQL store's readAll holds back events
 * committed after a transaction still open anywhere on the server (its xmin filter), so on a server shared with
 * other work a rebuild started at once may read less than was written; the tests wait for the log first.
 */
export async function waitForReadableLog(store: EventStore, expected: number): Promise<void> {
  await waitUntil(
    async () => {
      let readable = 0;
      let page = await store.readAll({ limit: 5_000 });
      while (page.length > 0) {
        readable += page.length;
        page = await store.readAll({ after: page.at(-1)!.position, limit: 5_000 });
      }
      return readable >= expected || undefined;
    },
    { timeoutMs: 60_000, intervalMs: 50, what: 'every event readable in the global log' },
  );
}

import type { EventStore, Position } from '@bank/eventstore';
import { sleep } from '@bank/platform';

/**
 * Waits until the global log reads up to `position` (the last event a load appended). The PostgreSQL store's readAll
 * holds back events committed after a transaction still open anywhere on the server (its xmin filter), so on a
 * server shared with other work a rebuild started at once could read less than was written: seed:scale and its
 * tests wait here before they rebuild.
 */
export async function waitForLogPosition(store: EventStore, position: Position, timeoutMs = 600_000): Promise<void> {
  const before: Position = { commit: position.commit, prepare: position.prepare - 1n };
  const deadline = Date.now() + timeoutMs;
  while ((await store.readAll({ after: before, limit: 1 })).length === 0) {
    if (Date.now() > deadline) throw new Error(`The log did not become readable up to ${position.commit}:${position.prepare} within ${timeoutMs} ms`);
    await sleep(50);
  }
}

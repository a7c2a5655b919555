import { turnNotifier } from '@bank/platform';
import type pg from 'pg';
import type { EventStoreLogger } from '../eventStoreLogger';

/**
 * Tells LISTENing subscribers (in any process) that events were committed: `pg_notify` in a transaction of its
 * own, sent after the append committed, at most one in flight per store; appends completing meanwhile are
 * covered by one more notification when it returns.
 *
 * Why not NOTIFY inside the append transaction: PostgreSQL serialises the commits of notifying transactions
 * (a global lock held until their commit record is flushed), which capped appends at one WAL flush at a time,
 * about 2,000/s on the bench machine. A notification-only transaction writes no WAL of its own and commits
 * without waiting for a flush. A notification lost in a crash between commit and notify only delays delivery
 * until the subscribers' next poll. The transaction is the pool's turnNotifier: it also carries the other
 * notifications the process asks in the same turn (a transfer's outcome).
 */
export function createAppendNotifier(pool: pg.Pool, channel: string, logger: EventStoreLogger) {
  const notify = turnNotifier(pool);
  let sending: Promise<void> | undefined;
  let again = false;

  function signal(): void {
    if (sending) {
      again = true;
      return;
    }
    again = false;
    sending = notify(channel, null)
      .then(
        () => undefined,
        (error: unknown) => logger.warn({ err: error }, 'event store could not notify subscribers; they will poll'),
      )
      .finally(() => {
        sending = undefined;
        if (again) signal();
      });
  }

  /** Resolves when no notification is being sent. */
  async function idle(): Promise<void> {
    while (sending) await sending;
  }

  return { signal, idle };
}

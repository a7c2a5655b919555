import type { Position, ReadAllOptions, RecordedEvent, SubscribeOptions } from '../eventStore';
import type { EventStoreLogger } from '../eventStoreLogger';
import { sleep } from '@bank/platform';
import { backoffDelay, type SubscriptionControl } from '../startSubscription';
import type { NotificationListener } from './notificationListener';

export interface PostgresSubscriptionDeps {
  readonly readAll: (options: ReadAllOptions) => Promise<RecordedEvent[]>;
  readonly listener: NotificationListener;
  readonly pollIntervalMs: number;
  readonly batchSize: number;
  readonly logger: EventStoreLogger;
}

/**
 * Catch-up then live, as one loop over readAll: read a batch after the last delivered position, hand each event
 * to the handler (awaited), and when a batch comes back short (caught up) wait for a notification or the poll
 * interval. A notification that arrives while a batch is being read or handled is remembered, so none is lost
 * between the read and the wait. Read errors are retried with backoff; a handler error ends the loop.
 */
export async function postgresSubscriptionLoop(
  control: SubscriptionControl,
  deps: PostgresSubscriptionDeps,
  options: SubscribeOptions,
): Promise<void> {
  let after: Position | undefined = options.after;
  let caughtUp = false;
  let failures = 0;
  let woken = false;
  let wakeWaiter: (() => void) | undefined;
  const unregister = deps.listener.register(() => {
    woken = true;
    wakeWaiter?.();
  });

  const waitForWake = () =>
    new Promise<void>((resolve) => {
      if (woken || control.stopped) return resolve();
      const timer = setTimeout(finish, deps.pollIntervalMs);
      control.signal.addEventListener('abort', finish, { once: true });
      wakeWaiter = finish;
      function finish() {
        clearTimeout(timer);
        control.signal.removeEventListener('abort', finish);
        wakeWaiter = undefined;
        resolve();
      }
    });

  try {
    while (!control.stopped) {
      woken = false;
      let batch: RecordedEvent[];
      try {
        batch = await deps.readAll({ after, limit: deps.batchSize });
        failures = 0;
      } catch (error) {
        if (control.stopped) return;
        failures += 1;
        deps.logger.warn({ err: error, failures }, 'event store subscription read failed; retrying');
        await sleep(backoffDelay(failures), control.signal);
        continue;
      }
      for (const event of batch) {
        if (control.stopped) return;
        await control.deliver(event);
        after = event.position;
      }
      if (batch.length === deps.batchSize) continue;
      if (!caughtUp) {
        caughtUp = true;
        options.onCaughtUp?.();
      }
      await waitForWake();
    }
  } finally {
    unregister();
  }
}

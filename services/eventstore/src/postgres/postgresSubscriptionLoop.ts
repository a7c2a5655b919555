import { comparePositions, type Position, type RecordedEvent, type SubscribeOptions } from '../eventStore';
import type { EventStoreLogger } from '../eventStoreLogger';
import { sleep } from '@bank/platform';
import { backoffDelay, type SubscriptionControl } from '../startSubscription';
import type { NotificationListener } from './notificationListener';

export interface PostgresSubscriptionDeps {
  /**
   * The next batch after a position (of the given types only, when given), whether committed events wait behind an
   * open transaction, and the readable head (the last readable event of any type).
   */
  readonly read: (
    after: Position | undefined,
    limit: number,
    types?: readonly string[],
  ) => Promise<{ events: RecordedEvent[]; heldBack: boolean; head?: Position | undefined }>;
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
 *
 * Committed events can be held back by the visibility fence (an older transaction still open on the server); their
 * notification has then already come and gone, and the transaction holding them back sends none when it ends. So
 * while the log is held back the loop reads again after a short, growing pause (1 ms, 2 ms, … HELD_BACK_MAX_MS)
 * instead of waiting for the poll interval: under concurrent appends that pause, not the poll, bounds the delay.
 *
 * With `eventTypes` the query returns only those types, and a short batch means every readable event up to the
 * head was looked at: the loop then goes on from the head (not from its last delivered event, which may lie far
 * behind a long run of other types) and reports it through onProgress.
 */
export const HELD_BACK_MAX_MS = 25;

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

  let heldBackPauses = 0;
  const waitForWake = (timeoutMs: number) =>
    new Promise<void>((resolve) => {
      if (woken || control.stopped) return resolve();
      const timer = setTimeout(finish, timeoutMs);
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
      const from = after;
      let batch: RecordedEvent[];
      let heldBack: boolean;
      let head: Position | undefined;
      try {
        ({ events: batch, heldBack, head } = await deps.read(after, deps.batchSize, options.eventTypes));
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
      if (batch.length < deps.batchSize && head && (!after || comparePositions(head, after) > 0)) after = head;
      if (after && (!from || comparePositions(after, from) > 0)) options.onProgress?.(after);
      if (batch.length === deps.batchSize) continue;
      if (!caughtUp) {
        caughtUp = true;
        options.onCaughtUp?.();
      }
      if (heldBack) {
        heldBackPauses = batch.length > 0 ? 1 : heldBackPauses + 1;
        await waitForWake(Math.min(HELD_BACK_MAX_MS, deps.pollIntervalMs, 2 ** (heldBackPauses - 1)));
      } else {
        heldBackPauses = 0;
        await waitForWake(deps.pollIntervalMs);
      }
    }
  } finally {
    unregister();
  }
}

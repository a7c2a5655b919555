import { START, type AllStreamSubscription, type EventStoreDBClient } from '@eventstore/db-client';
import { comparePositions, type Position, type SubscribeOptions } from '../eventStore';
import type { EventStoreLogger } from '../eventStoreLogger';
import { sleep } from '@bank/platform';
import { backoffDelay, type SubscriptionControl } from '../startSubscription';
import { isUnrecoverableSubscriptionError } from './esdbErrors';
import { subscriptionFilter } from './esdbFilter';
import { isSystemEvent, toRecordedEvent } from './esdbMapping';

export interface EsdbSubscriptionDeps {
  readonly client: EventStoreDBClient;
  readonly logger: EventStoreLogger;
  /** Receives each server subscription as it opens, so that stop() can cancel the one in use. */
  readonly onOpen: (subscription: AllStreamSubscription) => void;
}

/** Why the loop ends: the handler (or onCaughtUp) threw, or the store failed in a way no resubscription heals. */
class Failure {
  constructor(readonly error: unknown) {}
}

/**
 * A catch-up subscription to $all without system events, consumed with `for await` (the handler is awaited:
 * backpressure). When the server subscription fails or ends, it is reopened from the last delivered position
 * (start positions are exclusive) after an exponential backoff, so each event is delivered once. Errors that a
 * resubscription cannot heal (access denied, an invalid start position: isUnrecoverableSubscriptionError) end the
 * subscription and reach onError instead of being retried forever.
 *
 * The client emits `caughtUp` when the server's message arrives, while events before it may still sit in the
 * stream's buffer; onCaughtUp runs once those have been handled. With `eventTypes` the server filters by event
 * type, and each checkpoint it reports (how far it has looked) reaches onProgress the same way: once the events
 * buffered before it have been handled.
 */
export async function esdbSubscriptionLoop(control: SubscriptionControl, deps: EsdbSubscriptionDeps, options: SubscribeOptions): Promise<void> {
  let after: Position | undefined = options.after;
  let failures = 0;
  let caughtUpCalled = false;
  let reported: Position | undefined;

  while (!control.stopped) {
    let taken = 0;
    let handled = 0;
    let caughtUpAfter: number | undefined;
    let failure: Failure | undefined;
    const checkpoints: Array<{ readonly position: Position; readonly due: number }> = [];
    const filter = subscriptionFilter(options.eventTypes, (position) => {
      checkpoints.push({ position, due: taken + subscription.readableLength });
      reportProgressWhenDue();
    });
    const subscription = deps.client.subscribeToAll({ fromPosition: after ?? START, filter });
    deps.onOpen(subscription);

    function reportProgressWhenDue() {
      while (checkpoints.length > 0 && handled >= checkpoints[0]!.due && !failure) {
        const { position } = checkpoints.shift()!;
        if (reported && comparePositions(position, reported) <= 0) continue;
        reported = position;
        try {
          options.onProgress?.(position);
        } catch (error) {
          failure = new Failure(error);
          subscription.destroy();
        }
      }
    }

    const callCaughtUpWhenDue = () => {
      if (caughtUpCalled || caughtUpAfter === undefined || handled < caughtUpAfter || failure) return;
      caughtUpCalled = true;
      try {
        options.onCaughtUp?.();
      } catch (error) {
        failure = new Failure(error);
        subscription.destroy();
      }
    };
    subscription.on('caughtUp', () => {
      caughtUpAfter = taken + subscription.readableLength;
      callCaughtUpWhenDue();
    });

    try {
      for await (const resolved of subscription) {
        taken += 1;
        const event = toRecordedEvent(resolved);
        if (event && !isSystemEvent(event)) {
          if (control.stopped) break;
          try {
            await control.deliver(event);
          } catch (error) {
            failure = new Failure(error);
            break;
          }
          after = event.position;
          failures = 0;
        }
        handled += 1;
        reportProgressWhenDue();
        callCaughtUpWhenDue();
        if (control.stopped) break;
      }
      if (!failure && !control.stopped) throw new Error('EventStoreDB ended the subscription');
    } catch (error) {
      if (!failure && !control.stopped) {
        if (isUnrecoverableSubscriptionError(error)) {
          failure = new Failure(error);
        } else {
          failures += 1;
          deps.logger.warn({ err: error, failures }, 'EventStoreDB subscription dropped; resubscribing');
        }
      }
    } finally {
      await subscription.unsubscribe().catch(() => undefined);
      subscription.destroy();
    }
    if (failure) throw failure.error;
    if (!control.stopped) await sleep(backoffDelay(failures), control.signal);
  }
}

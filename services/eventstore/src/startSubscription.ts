import type { RecordedEvent, Subscription, SubscriptionHandler, SubscriptionSelf } from './eventStore';

/** What a subscription loop sees of its own lifecycle. */
export interface SubscriptionControl {
  /** True once stop() was called (or the store closed). */
  readonly stopped: boolean;
  /** Aborted on stop: pass it to waits so that they end at once. */
  readonly signal: AbortSignal;
  /** Runs the handler for one event; awaited, so the loop delivers the next event only after it. */
  deliver(event: RecordedEvent): Promise<void>;
}

export interface StartSubscriptionOptions {
  readonly handler: SubscriptionHandler;
  readonly onError?: (error: unknown) => void;
  /** Called once on stop(), e.g. to cancel a server-side stream the loop is waiting on. */
  readonly onStop?: () => Promise<void> | void;
  /** Called once when the subscription has ended, whatever the reason. */
  readonly onDone?: () => void;
  /** Where errors go when the caller gave no onError. */
  readonly reportError: (error: unknown) => void;
}

/**
 * Runs a subscription loop and gives it the port's Subscription shape: stop() at any time (it resolves when the
 * loop has ended, after the handler in progress returns), `done`, and errors from the loop (a throwing handler)
 * ending the subscription and reaching onError. A handler ends its own subscription with the `self.stop()` it is
 * given, which does not wait for the handler to return (it would wait for itself).
 *
 * That second argument replaced an AsyncLocalStorage that told a handler's own stop() from anyone else's: on Node
 * 20 its promise hooks ran for every promise of the process, 3 % of the bank's CPU under transfer load.
 */
export function startSubscription(
  options: StartSubscriptionOptions,
  loop: (control: SubscriptionControl) => Promise<void>,
): Subscription {
  const abort = new AbortController();
  let stopping: Promise<void> | undefined;
  const beginStop = () => {
    if (!stopping) {
      abort.abort();
      stopping = Promise.resolve(options.onStop?.()).then(
        () => undefined,
        () => undefined,
      );
    }
    return stopping;
  };
  const self: SubscriptionSelf = { stop: () => void beginStop() };

  const control: SubscriptionControl = {
    get stopped() {
      return abort.signal.aborted;
    },
    signal: abort.signal,
    deliver: async (event) => options.handler(event, self),
  };

  const done = (async () => {
    try {
      await Promise.resolve();
      await loop(control);
    } catch (error) {
      if (options.onError) options.onError(error);
      else options.reportError(error);
    } finally {
      abort.abort();
      options.onDone?.();
    }
  })();

  return {
    done,
    stop() {
      return beginStop().then(() => done);
    },
  };
}

/** Exponential backoff: 100 ms, 200 ms, … capped at `maxMs`. */
export function backoffDelay(attempt: number, maxMs = 5_000): number {
  return Math.min(maxMs, 100 * 2 ** Math.max(0, attempt - 1));
}

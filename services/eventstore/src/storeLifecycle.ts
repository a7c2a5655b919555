import { EventStoreClosedError } from './errors';
import type { Subscription } from './eventStore';

/**
 * What both adapters do alike around their connection: refuse calls once closing, keep the live subscriptions, and
 * close by stopping every subscription before releasing what the adapter holds (`release`, run once).
 */
export function createStoreLifecycle(release: () => Promise<void>) {
  const subscriptions = new Set<Subscription>();
  let closing: Promise<void> | undefined;
  return {
    /** Throws EventStoreClosedError after close(). */
    assertOpen(): void {
      if (closing) throw new EventStoreClosedError();
    },
    track<T extends Subscription>(subscription: T): T {
      subscriptions.add(subscription);
      return subscription;
    },
    forget(subscription: Subscription): void {
      subscriptions.delete(subscription);
    },
    close(): Promise<void> {
      closing ??= (async () => {
        await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
        await release();
      })();
      return closing;
    },
  };
}

import type { RecordedEvent } from '@bank/eventstore';

/**
 * A bounded queue between the store's subscription (one event at a time, awaited) and the batch applier: the
 * subscription's handler waits while the queue is full (backpressure); the applier takes everything that has
 * arrived, up to a batch, so events that arrive together are applied together.
 */
export class EventBuffer {
  private readonly events: RecordedEvent[] = [];
  private readonly spaceWaiters: (() => void)[] = [];
  private dataWaiter: (() => void) | undefined;
  private closed = false;
  /** Events ever pushed. */
  pushed = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.events.length;
  }

  /** Adds an event; resolves once there is room for it. Events pushed after close() are dropped. */
  async push(event: RecordedEvent): Promise<void> {
    while (!this.closed && this.events.length >= this.capacity) {
      await new Promise<void>((resolve) => this.spaceWaiters.push(resolve));
    }
    if (this.closed) return;
    this.events.push(event);
    this.pushed += 1;
    this.dataWaiter?.();
  }

  /** Up to `max` events, waiting until at least one is there; [] once closed. */
  async take(max: number): Promise<RecordedEvent[]> {
    while (!this.closed && this.events.length === 0) {
      await new Promise<void>((resolve) => (this.dataWaiter = resolve));
      this.dataWaiter = undefined;
    }
    if (this.closed) return [];
    // Let events the subscription is delivering right now join the batch.
    if (this.events.length < max) await new Promise((resolve) => setImmediate(resolve));
    const batch = this.events.splice(0, max);
    for (const wake of this.spaceWaiters.splice(0)) wake();
    return batch;
  }

  close(): void {
    this.closed = true;
    this.events.length = 0;
    this.dataWaiter?.();
    for (const wake of this.spaceWaiters.splice(0)) wake();
  }
}

import { randomUUID } from 'node:crypto';
import {
  comparePositions,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
  type Subscription,
} from '../eventStore';
import { sleep } from '@bank/platform';

export function newEvent(type: string, data: Record<string, unknown> = {}, metadata?: EventMetadata): NewEvent {
  return { id: randomUUID(), type, data, metadata };
}

export function newEvents(count: number, type = 'Counted'): NewEvent[] {
  return Array.from({ length: count }, (_, index) => newEvent(type, { index }));
}

/** Stream names unique to one suite run, so that suites can share a store (EventStoreDB keeps everything). */
export function streamNamer() {
  const prefix = `conf${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  let counter = 0;
  return {
    prefix,
    next(label: string): string {
      counter += 1;
      return `${prefix}-${label}_${counter}`;
    },
  };
}

/**
 * Waits until readers can see `position` (the PostgreSQL store holds events back while an older transaction
 * anywhere in the cluster is open). Bounded by the test's timeout, not by a clock of its own.
 */
export async function waitUntilVisible(store: EventStore, position: Position): Promise<void> {
  for (;;) {
    const head = await store.headPosition();
    if (head && comparePositions(head, position) >= 0) return;
    await sleep(10);
  }
}

/** Every event after `after` in the global log, page by page, as readAll returns it. */
export async function readAllPages(store: EventStore, after: Position | undefined, limit: number): Promise<RecordedEvent[][]> {
  const pages: RecordedEvent[][] = [];
  let cursor = after;
  for (;;) {
    const page = await store.readAll({ after: cursor, limit });
    if (page.length === 0) return pages;
    pages.push(page);
    cursor = page[page.length - 1]!.position;
  }
}

export interface Collector {
  /** The events of the streams under the prefix, in delivery order. */
  readonly events: RecordedEvent[];
  /** Positions of every delivered event (any stream), in delivery order. */
  readonly positions: Position[];
  readonly subscription: Subscription;
  /** How many prefix events had been delivered when onCaughtUp ran, once per call. */
  readonly caughtUpCalls: number[];
  /** Resolves once the subscription has caught up. */
  readonly caughtUp: Promise<void>;
  /** Resolves when the predicate holds for the collected events; rejects if the subscription fails. */
  until(predicate: (events: RecordedEvent[]) => boolean): Promise<void>;
}

export function collect(
  store: EventStore,
  options: { prefix: string; after?: Position; handle?: (event: RecordedEvent) => Promise<void> | void },
): Collector {
  const events: RecordedEvent[] = [];
  const positions: Position[] = [];
  const caughtUpCalls: number[] = [];
  let failure: unknown;
  let waiters: Array<{ predicate: (events: RecordedEvent[]) => boolean; resolve(): void; reject(error: unknown): void }> = [];
  let markCaughtUp = () => undefined as void;
  const caughtUp = new Promise<void>((resolve) => {
    markCaughtUp = resolve;
  });

  const check = () => {
    waiters = waiters.filter((waiter) => {
      if (failure !== undefined) waiter.reject(failure);
      else if (waiter.predicate(events)) waiter.resolve();
      else return true;
      return false;
    });
  };

  const subscription = store.subscribe(
    async (event) => {
      positions.push(event.position);
      if (event.streamId.startsWith(options.prefix)) events.push(event);
      await options.handle?.(event);
      check();
    },
    {
      after: options.after,
      onCaughtUp: () => {
        caughtUpCalls.push(events.length);
        markCaughtUp();
      },
      onError: (error) => {
        failure = error ?? new Error('subscription failed');
        check();
      },
    },
  );

  return {
    events,
    positions,
    subscription,
    caughtUpCalls,
    caughtUp,
    until(predicate) {
      return new Promise<void>((resolve, reject) => {
        waiters.push({ predicate, resolve, reject });
        check();
      });
    },
  };
}

/** The consecutive pairs of positions that are not strictly increasing (empty when all are in order). */
export function outOfOrder(positions: readonly Position[]): Array<[Position, Position]> {
  const bad: Array<[Position, Position]> = [];
  for (let index = 1; index < positions.length; index += 1) {
    if (comparePositions(positions[index - 1]!, positions[index]!) >= 0) bad.push([positions[index - 1]!, positions[index]!]);
  }
  return bad;
}

export function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

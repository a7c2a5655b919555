import { afterEach, beforeAll, beforeEach, describe } from 'vitest';
import type { EventStore } from '../eventStore';
import { appendAndReadCases } from './appendAndReadCases';
import { closeCases } from './closeCases';
import { concurrentWritersCases, type ConcurrentWritersSettings } from './concurrentWritersCases';
import { streamNamer } from './conformanceHelpers';
import { deletedStreamCases } from './deletedStreamCases';
import { expectedRevisionCases } from './expectedRevisionCases';
import { filteredSubscriptionCases } from './filteredSubscriptionCases';
import { globalLogCases } from './globalLogCases';
import { idempotencyCases } from './idempotencyCases';
import { positionTokenCases } from './positionTokenCases';
import { subscriptionCases } from './subscriptionCases';

export interface ConformanceStoreOptions {
  /**
   * Upper bound (ms) of a random delay each append waits inside its transaction before committing, so that
   * concurrent appends commit out of order. Adapters that cannot inject it (EventStoreDB) ignore it.
   */
  readonly appendDelayMs?: number;
}

export interface ConformanceStore {
  readonly store: EventStore;
  /**
   * Deletes a stream for good, the way an operator would on this backend (EventStoreDB: tombstoneStream;
   * PostgreSQL: tombstoneStream). The port has no delete; the suite checks how a deleted stream behaves.
   */
  tombstone(stream: string): Promise<void>;
  cleanup(): Promise<void>;
}

export type ConformanceStoreFactory = (options?: ConformanceStoreOptions) => Promise<ConformanceStore>;

/** What each group of cases gets: the store of the current test, fresh stream names, extra stores. */
export interface ConformanceContext {
  readonly store: EventStore;
  readonly streams: ReturnType<typeof streamNamer>;
  /** Tombstones a stream on the backend of the current test's store. */
  tombstone(stream: string): Promise<void>;
  /** Another store on the same backend (cleaned up after the test). */
  open(options?: ConformanceStoreOptions): Promise<EventStore>;
}

export interface ConformanceSettings {
  readonly concurrentWriters?: Partial<ConcurrentWritersSettings>;
}

/**
 * The one test suite every event-store adapter passes. The factory is called for each test; stores may share
 * their backend between tests (the cases use stream names unique to the run and read the global log from the
 * head position they start at).
 */
export function describeEventStoreConformance(name: string, factory: ConformanceStoreFactory, settings: ConformanceSettings = {}): void {
  describe(`${name} event store conformance`, () => {
    const opened: ConformanceStore[] = [];
    let current: ConformanceStore | undefined;
    const harness = () => {
      if (!current) throw new Error('No store: the conformance context is used outside a test');
      return current;
    };
    const context: ConformanceContext = {
      get store() {
        return harness().store;
      },
      streams: streamNamer(),
      tombstone: (stream) => harness().tombstone(stream),
      async open(options) {
        const harness = await factory(options);
        opened.push(harness);
        return harness.store;
      },
    };

    beforeAll(() => {
      // A line in the CI output that says which adapter the shared suite ran against.
      console.info(`Event store conformance suite: running on ${name}`);
    });

    beforeEach(async () => {
      current = await factory();
      opened.push(current);
    });

    afterEach(async () => {
      current = undefined;
      await Promise.all(opened.splice(0).map((harness) => harness.cleanup()));
    });

    describe('append and readStream', () => appendAndReadCases(context));
    describe('expected revision', () => expectedRevisionCases(context));
    describe('idempotent event ids', () => idempotencyCases(context));
    describe('global log', () => globalLogCases(context));
    describe('position tokens', () => positionTokenCases(context));
    describe('deleted streams', () => deletedStreamCases(context));
    describe('close', () => closeCases(context));
    describe('subscriptions', () => subscriptionCases(context));
    describe('filtered subscriptions', () => filteredSubscriptionCases(context));
    describe('concurrent writers', () => concurrentWritersCases(context, settings.concurrentWriters));
  });
}

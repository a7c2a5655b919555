import { EventStoreDBClient, type AllStreamSubscription } from '@eventstore/db-client';
import { checkNewEvents } from '../checkNewEvents';
import type { EventStore } from '../eventStore';
import { silentLogger, type EventStoreLogger } from '../eventStoreLogger';
import { startSubscription } from '../startSubscription';
import { appendToEsdb, type EsdbAppendIo } from './esdbAppend';
import { logHeadPosition, readLog } from './esdbLogReads';
import { toEsdbConnectionString, toEsdbEvent } from './esdbMapping';
import { resolveEsdbPositionToken } from './esdbPositionToken';
import { readStreamEvents, readStreamTail } from './esdbStreamReads';
import { esdbSubscriptionLoop } from './esdbSubscriptionLoop';
import { createStoreLifecycle } from '../storeLifecycle';

export interface EsdbEventStoreOptions {
  /** e.g. esdb://localhost:2113?tls=false, or kurrentdb://…, esdb+discover://…, kurrentdb+discover://… */
  readonly connectionString: string;
  readonly logger?: EventStoreLogger;
  /**
   * How many of a stream's last events an append searches for the ids of a retried append (default 100): a retry
   * is recognised as long as fewer events than this were appended after the original. See docs/eventstore.md.
   */
  readonly idempotencyWindow?: number;
}

const DEFAULT_READ_LIMIT = 1000;
export const DEFAULT_IDEMPOTENCY_WINDOW = 100;
/** Attempts of an 'any'/'exists' append overtaken by other writers each time before it reports a conflict. */
const MAX_APPEND_ATTEMPTS = 50;

/** The EventStoreDB event store (@eventstore/db-client 6.2.1), the production choice. */
export function createEsdbEventStore(options: EsdbEventStoreOptions): EventStore {
  const idempotencyWindow = options.idempotencyWindow ?? DEFAULT_IDEMPOTENCY_WINDOW;
  if (!Number.isInteger(idempotencyWindow) || idempotencyWindow < 1) {
    throw new RangeError(`idempotencyWindow must be a positive integer, got ${idempotencyWindow}`);
  }
  const client = EventStoreDBClient.connectionString(toEsdbConnectionString(options.connectionString));
  const logger = options.logger ?? silentLogger;
  const lifecycle = createStoreLifecycle(() => client.dispose());

  const appendIo: EsdbAppendIo = {
    readTail: (stream, count) => readStreamTail(client, stream, count),
    readFrom: (stream, from, count) => readStreamEvents(client, stream, from, count),
    write: (stream, events, expectedRevision) => client.appendToStream(stream, events.map(toEsdbEvent), { expectedRevision }),
  };

  return {
    async append(stream, events, expected) {
      lifecycle.assertOpen();
      checkNewEvents(events);
      return appendToEsdb(appendIo, stream, events, expected, { idempotencyWindow, maxAttempts: MAX_APPEND_ATTEMPTS });
    },

    async readStream(stream, range = {}) {
      lifecycle.assertOpen();
      const limit = range.limit ?? Number.MAX_SAFE_INTEGER;
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
      const from = range.fromRevision ?? 0n;
      return readStreamEvents(client, stream, from < 0n ? 0n : from, limit);
    },

    async readAll(readOptions = {}) {
      lifecycle.assertOpen();
      const limit = readOptions.limit ?? DEFAULT_READ_LIMIT;
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
      return readLog(client, readOptions.after, limit, false);
    },

    async headPosition() {
      lifecycle.assertOpen();
      return logHeadPosition(client);
    },

    /** The token of a position is its commit position. */
    positionToken(position) {
      return position.commit.toString();
    },

    async resolvePositionToken(token) {
      lifecycle.assertOpen();
      return resolveEsdbPositionToken(client, token);
    },

    subscribe(handler, subscribeOptions = {}) {
      lifecycle.assertOpen();
      let current: AllStreamSubscription | undefined;
      const subscription = startSubscription(
        {
          handler,
          onError: subscribeOptions.onError,
          onStop: async () => {
            await current?.unsubscribe();
            current?.destroy();
          },
          onDone: () => lifecycle.forget(subscription),
          reportError: (error) => logger.error({ err: error }, 'EventStoreDB subscription stopped by an error'),
        },
        (control) =>
          esdbSubscriptionLoop(
            control,
            {
              client,
              logger,
              onOpen: (opened) => {
                current = opened;
              },
            },
            subscribeOptions,
          ),
      );
      return lifecycle.track(subscription);
    },

    close() {
      return lifecycle.close();
    },
  };
}

import type pg from 'pg';
import type { EventStore } from '../eventStore';
import { silentLogger, type EventStoreLogger } from '../eventStoreLogger';
import { startSubscription } from '../startSubscription';
import { createAppendNotifier } from './appendNotifier';
import { createEventAppender } from './eventAppender';
import { createEventReader } from './eventReader';
import { DEFAULT_SCHEMA, defaultNotifyChannel, eventStoreSchema } from './eventStoreSchema';
import { createNotificationListener } from './notificationListener';
import { postgresSubscriptionLoop } from './postgresSubscriptionLoop';
import { createStoreLifecycle } from '../storeLifecycle';

export interface PostgresEventStoreOptions {
  /** The pool appends and reads use. The store does not end it. */
  readonly pool: pg.Pool;
  /** Schema holding the tables and the append function; create it with ensureEventStoreSchema. */
  readonly schema?: string;
  /** NOTIFY channel appends signal and subscriptions LISTEN on; default `<schema>_appended`. */
  readonly notifyChannel?: string;
  /** How often a live subscription polls when no notification arrives (fallback for lost notifications). */
  readonly pollIntervalMs?: number;
  /** Events a subscription reads per batch. */
  readonly subscriptionBatchSize?: number;
  readonly logger?: EventStoreLogger;
  /** Group commit: appends waiting while this many batches are in flight go together in the next one. */
  readonly maxConcurrentBatches?: number;
  /** Group commit: the most appends in one batch. */
  readonly maxBatchSize?: number;
  /** Test hook, see EventAppenderOptions.appendDelayMs. */
  readonly appendDelayMs?: number;
}

export const DEFAULT_POLL_INTERVAL_MS = 250;
const DEFAULT_SUBSCRIPTION_BATCH_SIZE = 500;

/**
 * The PostgreSQL event store: the embedded default and the test store. Expects its schema to exist
 * (ensureEventStoreSchema, which createEventStore runs).
 */
export function createPostgresEventStore(options: PostgresEventStoreOptions): EventStore {
  const s = eventStoreSchema(options.schema ?? DEFAULT_SCHEMA);
  const channel = options.notifyChannel ?? defaultNotifyChannel(s.name);
  const logger = options.logger ?? silentLogger;
  const reader = createEventReader(options.pool, s);
  const notifier = createAppendNotifier(options.pool, channel, logger);
  const appender = createEventAppender(options.pool, s, {
    onAppended: notifier.signal,
    maxBatchSize: options.maxBatchSize,
    maxConcurrentBatches: options.maxConcurrentBatches,
    appendDelayMs: options.appendDelayMs,
  });
  const listener = createNotificationListener({ connection: options.pool.options, channel, logger });
  const lifecycle = createStoreLifecycle(async () => {
    await Promise.all([listener.close(), notifier.idle()]);
  });

  return {
    async append(stream, events, expected) {
      lifecycle.assertOpen();
      return appender.append(stream, events, expected);
    },
    async readStream(stream, range) {
      lifecycle.assertOpen();
      return reader.readStream(stream, range);
    },
    async readEvent(stream, eventId) {
      lifecycle.assertOpen();
      return reader.readEvent(stream, eventId);
    },
    async readAll(readOptions) {
      lifecycle.assertOpen();
      return reader.readAll(readOptions);
    },
    async readRecorded(readOptions) {
      lifecycle.assertOpen();
      return reader.readRecorded(readOptions);
    },
    async readRecordedSince(readOptions) {
      lifecycle.assertOpen();
      return reader.readRecordedSince(readOptions);
    },
    async headPosition() {
      lifecycle.assertOpen();
      return reader.headPosition();
    },
    positionToken: reader.positionToken,
    async resolvePositionToken(token) {
      lifecycle.assertOpen();
      return reader.resolvePositionToken(token);
    },

    async streamHeads() {
      lifecycle.assertOpen();
      return reader.streamHeads();
    },

    async countStreamEvents(stream, query) {
      lifecycle.assertOpen();
      return reader.countStreamEvents(stream, query);
    },

    async lastStreamEvent(stream, query) {
      lifecycle.assertOpen();
      return reader.lastStreamEvent(stream, query);
    },

    async streamTails(streams, dataContains) {
      lifecycle.assertOpen();
      return reader.streamTails(streams, dataContains);
    },

    async appendMany(appends) {
      lifecycle.assertOpen();
      return appender.appendMany(appends);
    },

    subscribe(handler, subscribeOptions = {}) {
      lifecycle.assertOpen();
      const subscription = startSubscription(
        {
          handler,
          onError: subscribeOptions.onError,
          onDone: () => lifecycle.forget(subscription),
          reportError: (error) => logger.error({ err: error }, 'event store subscription stopped by an error'),
        },
        (control) =>
          postgresSubscriptionLoop(
            control,
            {
              read: reader.readAllForSubscription,
              listener,
              pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
              batchSize: options.subscriptionBatchSize ?? DEFAULT_SUBSCRIPTION_BATCH_SIZE,
              logger,
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

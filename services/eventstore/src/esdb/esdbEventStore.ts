import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  START,
  type AllStreamSubscription,
  type ReadPosition,
} from '@eventstore/db-client';
import { comparePositions, type EventStore, type Position, type RecordedEvent, type Subscription } from '../eventStore';
import { silentLogger, type EventStoreLogger } from '../eventStoreLogger';
import { startSubscription } from '../startSubscription';
import { isStreamNotFound, isSystemEvent, toEsdbConnectionString, toEsdbEvent, toEsdbExpectedRevision, toPortError, toRecordedEvent } from './esdbMapping';
import { esdbSubscriptionLoop } from './esdbSubscriptionLoop';

export interface EsdbEventStoreOptions {
  /** e.g. esdb://localhost:2113?tls=false */
  readonly connectionString: string;
  readonly logger?: EventStoreLogger;
}

const DEFAULT_READ_LIMIT = 1000;

/** The EventStoreDB event store (@eventstore/db-client 6.2.1), the production choice. */
export function createEsdbEventStore(options: EsdbEventStoreOptions): EventStore {
  const client = EventStoreDBClient.connectionString(toEsdbConnectionString(options.connectionString));
  const logger = options.logger ?? silentLogger;
  const subscriptions = new Set<Subscription>();
  let closed = false;

  async function readStream(stream: string, range: { fromRevision?: bigint; limit?: number } = {}): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      const read = client.readStream(stream, { fromRevision: range.fromRevision ?? START, maxCount: range.limit ?? Number.MAX_SAFE_INTEGER });
      for await (const resolved of read) {
        const event = toRecordedEvent(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw error;
    }
    return events;
  }

  /**
   * Reads $all in chunks from `cursor`, skipping the event at the cursor itself (the client's read positions
   * are inclusive, the port's are exclusive) and system events, until `limit` events are collected or the log ends.
   */
  async function readAllFrom(cursor: Position | undefined, limit: number, backwards: boolean): Promise<RecordedEvent[]> {
    const collected: RecordedEvent[] = [];
    for (;;) {
      const maxCount = limit - collected.length + 1;
      const fromPosition: ReadPosition = cursor ?? (backwards ? END : START);
      let seen = 0;
      let last: Position | undefined;
      const read = client.readAll({ fromPosition, maxCount, direction: backwards ? BACKWARDS : undefined });
      try {
        for await (const resolved of read) {
          seen += 1;
          const event = toRecordedEvent(resolved);
          if (!event) continue;
          if (cursor) {
            const order = comparePositions(event.position, cursor);
            if (backwards ? order >= 0 : order <= 0) continue;
          }
          last = event.position;
          if (!isSystemEvent(event)) collected.push(event);
          if (collected.length === limit) break;
        }
      } finally {
        void read.cancel(); // stops the server stream when the loop ended early
      }
      if (collected.length === limit || seen < maxCount || !last) return collected;
      cursor = last;
    }
  }

  async function positionOfRevision(stream: string, revision: bigint): Promise<Position> {
    const [event] = await readStream(stream, { fromRevision: revision, limit: 1 });
    if (!event) throw new Error(`EventStoreDB reported revision ${revision} of ${stream}, which cannot be read`);
    return event.position;
  }

  return {
    async append(stream, events, expected) {
      if (events.length === 0) throw new RangeError('append needs at least one event');
      const expectedRevision = toEsdbExpectedRevision(expected);
      try {
        const result = await client.appendToStream(stream, events.map(toEsdbEvent), { expectedRevision });
        // An idempotent retry comes back without a position: use the stored last event's.
        const position = result.position ?? (await positionOfRevision(stream, result.nextExpectedRevision));
        return { nextExpectedRevision: result.nextExpectedRevision, position: { commit: position.commit, prepare: position.prepare } };
      } catch (error) {
        throw toPortError(error, stream, expected);
      }
    },

    readStream,

    readAll(readOptions = {}) {
      const limit = readOptions.limit ?? DEFAULT_READ_LIMIT;
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
      return readAllFrom(readOptions.after, limit, false);
    },

    async headPosition() {
      const [last] = await readAllFrom(undefined, 1, true);
      return last?.position;
    },

    /** The token of a position is its commit position. */
    positionToken(position) {
      return position.commit.toString();
    },

    /** The last event with that commit position (events of one append may share it), if it is stored. */
    async resolvePositionToken(token) {
      if (!/^\d{1,19}$/.test(token)) return undefined;
      const commit = BigInt(token);
      let found: Position | undefined;
      const read = client.readAll({ fromPosition: { commit, prepare: commit }, maxCount: 100 });
      try {
        for await (const resolved of read) {
          const position = resolved.event?.position;
          if (!position || position.commit !== commit) break;
          found = position;
        }
      } finally {
        void read.cancel();
      }
      return found;
    },

    subscribe(handler, subscribeOptions = {}) {
      if (closed) throw new Error('The event store is closed');
      let current: AllStreamSubscription | undefined;
      const subscription = startSubscription(
        {
          handler,
          onError: subscribeOptions.onError,
          onStop: async () => {
            await current?.unsubscribe();
            current?.destroy();
          },
          onDone: () => subscriptions.delete(subscription),
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
      subscriptions.add(subscription);
      return subscription;
    },

    async close() {
      closed = true;
      await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
      await client.dispose();
    },
  };
}

import pg from 'pg';
import { backoffDelay } from '../startSubscription';
import type { EventStoreLogger } from '../eventStoreLogger';

export const LISTENER_APPLICATION_NAME = 'bank-eventstore-listen';

export interface NotificationListener {
  /** Calls `onWake` on every notification and after every reconnect (notifications may have been missed). */
  register(onWake: () => void): () => void;
  close(): Promise<void>;
}

/**
 * One LISTEN connection per store, on a dedicated client (not a pool slot), opened while at least one subscriber
 * is registered. When the connection fails it is reopened with backoff; subscribers also poll, so a lost
 * notification only delays delivery.
 */
export function createNotificationListener(options: {
  readonly connection: pg.ClientConfig;
  readonly channel: string;
  readonly logger: EventStoreLogger;
}): NotificationListener {
  const wakers = new Set<() => void>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;

  const wakeAll = () => {
    for (const wake of wakers) wake();
  };

  function wanted(): boolean {
    return !closed && wakers.size > 0;
  }

  function scheduleReconnect(): void {
    if (!wanted() || retryTimer) return;
    failures += 1;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, backoffDelay(failures));
  }

  function connect(): Promise<void> {
    if (client || connecting || !wanted()) return connecting ?? Promise.resolve();
    connecting = (async () => {
      const next = new pg.Client({ ...options.connection, application_name: LISTENER_APPLICATION_NAME });
      const lost = (error?: Error) => {
        if (client !== next) return;
        client = undefined;
        next.removeAllListeners('notification');
        next.end().catch(() => undefined);
        if (wanted()) options.logger.warn({ err: error }, 'event store LISTEN connection lost; reconnecting');
        scheduleReconnect();
      };
      next.on('error', lost);
      next.on('end', () => lost());
      next.on('notification', wakeAll);
      try {
        await next.connect();
        await next.query(`LISTEN ${pg.escapeIdentifier(options.channel)}`);
        if (!wanted()) {
          await next.end();
          return;
        }
        client = next;
        failures = 0;
        wakeAll();
      } catch (error) {
        next.removeAllListeners('notification');
        await next.end().catch(() => undefined);
        options.logger.warn({ err: error }, 'event store LISTEN connection failed; retrying');
        scheduleReconnect();
      }
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  async function disconnect(): Promise<void> {
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = undefined;
    await connecting;
    if (wanted()) return; // a subscriber registered meanwhile: keep the connection
    const current = client;
    client = undefined;
    if (current) {
      current.removeAllListeners('notification');
      await current.end().catch(() => undefined);
    }
  }

  return {
    register(onWake) {
      wakers.add(onWake);
      void connect();
      return () => {
        wakers.delete(onWake);
        if (wakers.size === 0) void disconnect();
      };
    },
    async close() {
      closed = true;
      wakers.clear();
      await disconnect();
    },
  };
}

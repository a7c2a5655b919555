import type { EventStore } from '@bank/eventstore';
import type { Config, Keyring, Logger } from '@bank/platform';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { createCommandHandler, type CommandHandler } from './commandHandler';
import { createCommandMetrics } from './commandMetrics';
import { createPostgresSnapshotStore, ensureSnapshotSchema } from './snapshotStore';

/**
 * The command handler of one process, as the bank runs it: snapshots in PostgreSQL, the cache size, snapshot interval
 * and retry budget from the configuration, metrics on `registry`. One per process: every part of the process (the API,
 * the transfer process, the staff tools) must share it, or they would be several writers of the same streams.
 */
export async function createBankCommands(options: {
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly config: Pick<Config, 'COMMAND_CACHE_STREAMS' | 'SNAPSHOT_EVERY' | 'COMMAND_MAX_ATTEMPTS'>;
  readonly logger?: Logger;
  readonly registry?: Registry;
  /** The chain keyring (loadChainKeys): every event the bank appends is keyed with its current key. */
  readonly chainKeys: Keyring;
}): Promise<CommandHandler> {
  await ensureSnapshotSchema(options.pool);
  return createCommandHandler({
    store: options.store,
    snapshots: createPostgresSnapshotStore(options.pool),
    cacheSize: options.config.COMMAND_CACHE_STREAMS,
    snapshotEvery: options.config.SNAPSHOT_EVERY,
    maxAttempts: options.config.COMMAND_MAX_ATTEMPTS,
    metrics: createCommandMetrics(options.registry),
    chainKeys: options.chainKeys,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

import { quoteIdent } from '@bank/platform';

/** Names of the PostgreSQL event store's objects in one schema, quoted for SQL. */
export interface EventStoreSchema {
  readonly name: string;
  readonly schema: string;
  readonly streams: string;
  readonly events: string;
  readonly sequence: string;
  readonly appendFunction: string;
}

export const DEFAULT_SCHEMA = 'eventstore';

/**
 * The `streams.revision` of a tombstoned stream (the largest bigint, as EventStoreDB's deleted-stream event number):
 * appends to it fail with StreamDeletedError, readStream shows none of its events. See tombstoneStream.ts.
 */
export const TOMBSTONE_REVISION = 9223372036854775807n;

/** The class key of the per-stream advisory locks (with hashtext(stream) as the object key) of a schema. */
export function streamLockClass(schemaName: string): string {
  return `${schemaName}.streams`;
}

export function eventStoreSchema(name: string = DEFAULT_SCHEMA): EventStoreSchema {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`Event store schema name must be a lower-case SQL identifier, got ${JSON.stringify(name)}`);
  }
  const schema = quoteIdent(name);
  return {
    name,
    schema,
    streams: `${schema}.streams`,
    events: `${schema}.events`,
    sequence: `${schema}.events_global_position_seq`,
    appendFunction: `${schema}.append_batch`,
  };
}

/** The default NOTIFY channel of a schema: appends notify it on commit, subscriptions LISTEN on it. */
export function defaultNotifyChannel(schemaName: string): string {
  return `${schemaName}_appended`;
}

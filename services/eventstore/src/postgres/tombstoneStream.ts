import { inTransaction } from '@bank/platform';
import type pg from 'pg';
import { DEFAULT_SCHEMA, eventStoreSchema, streamLockClass, TOMBSTONE_REVISION } from './eventStoreSchema';

/**
 * Deletes a stream for good, as EventStoreDB's tombstone does: from then on it reads as missing and every append to
 * it fails with StreamDeletedError (retries of earlier appends included). Its events stay in the table and in the
 * global log, so projections and audits that already saw them stay consistent. Irreversible through the store.
 *
 * An operator's tool, not part of the port (the bank never deletes a stream); the conformance suite uses it to
 * check that both adapters treat a deleted stream alike. Tombstoning a stream that has no events reserves the
 * name: it can never be created.
 *
 * Takes the stream's append lock first, so an append in flight either completes before the tombstone or finds it.
 */
export async function tombstoneStream(pool: pg.Pool, stream: string, schemaName: string = DEFAULT_SCHEMA): Promise<void> {
  const s = eventStoreSchema(schemaName);
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [streamLockClass(s.name), stream]);
    await client.query(
      `INSERT INTO ${s.streams} AS st (stream_id, revision) VALUES ($1, $2)
         ON CONFLICT (stream_id) DO UPDATE SET revision = EXCLUDED.revision`,
      [stream, TOMBSTONE_REVISION.toString()],
    );
  });
}

import { DEFAULT_SCHEMA } from '@bank/eventstore';
import { quoteIdent } from '@bank/platform';
import type pg from 'pg';

/**
 * The PostgreSQL event store's stream index (`<schema>.streams`: each stream's last revision). Reading it lets
 * verification notice events cut off a stream's end, which no hash chain can show on its own.
 */
export function postgresStreamHeads(pool: pg.Pool, schema: string = DEFAULT_SCHEMA): () => Promise<ReadonlyMap<string, bigint>> {
  return async () => {
    const result = await pool.query<{ stream_id: string; revision: string }>(
      `SELECT stream_id, revision FROM ${quoteIdent(schema)}.streams`,
    );
    return new Map(result.rows.map((row) => [row.stream_id, BigInt(row.revision)]));
  };
}

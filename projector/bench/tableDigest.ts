import type pg from 'pg';
import { READ_MODEL_TABLE_NAMES } from '../src/schema/readModelTables';

/** Per read-model table: its row count and a digest of all its rows (order-independent). */
export async function tableDigests(pool: pg.Pool, schema = 'rm'): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  for (const table of READ_MODEL_TABLE_NAMES) {
    const { rows } = await pool.query<{ n: string; digest: string | null }>(
      `SELECT count(*) AS n, md5(string_agg(h, '' ORDER BY h)) AS digest FROM (SELECT md5(t::text) AS h FROM ${schema}.${table} t) rows`,
    );
    digests[table] = `${rows[0]!.n} rows ${rows[0]!.digest ?? '-'}`;
  }
  return digests;
}

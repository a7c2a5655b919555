import type pg from 'pg';
import { READ_MODEL_TABLE_NAMES } from '../schema/readModelTables';
import { schemaIdent } from '../schema/readModelSchema';

export type ReadModelSnapshot = Record<string, unknown[]>;

/** Every row of every read-model table (checkpoint excluded), as JSON, ordered: for comparing two builds. */
export async function readModelSnapshot(db: Pick<pg.Pool, 'query'>, schema = 'rm'): Promise<ReadModelSnapshot> {
  const s = schemaIdent(schema);
  const snapshot: ReadModelSnapshot = {};
  for (const table of READ_MODEL_TABLE_NAMES) {
    const { rows } = await db.query<{ row: unknown }>(`SELECT to_jsonb(t) AS row FROM ${s}.${table} t ORDER BY to_jsonb(t)::text`);
    snapshot[table] = rows.map((r) => r.row);
  }
  return snapshot;
}

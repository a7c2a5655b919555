import type pg from 'pg';
import { LOCK_SQL, migrateLockArgs } from '../locks/advisoryLocks';
import { migrations, type Migration } from './migrations';
import { READ_MODEL_SCHEMA, schemaIdent } from './readModelSchema';

export interface MigrateResult {
  readonly schema: string;
  /** Versions applied by this call (empty when the schema was up to date). */
  readonly applied: readonly number[];
}

/**
 * Creates the read-model schema when missing and applies the migrations it lacks, in one transaction under an
 * advisory lock (safe to run at every start, from several processes at once). The lock is the database's, not the
 * schema's: a rebuild migrates its build schema while the live projector may be migrating `rm`, and a migration's
 * database-wide DDL (`CREATE EXTENSION IF NOT EXISTS pg_trgm`) run by both at once fails one of them on
 * `pg_extension_name_index`.
 */
export async function migrateReadModels(
  pool: pg.Pool,
  schema: string = READ_MODEL_SCHEMA,
  list: readonly Migration[] = migrations,
): Promise<MigrateResult> {
  const s = schemaIdent(schema);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(LOCK_SQL.xactLock, migrateLockArgs());
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`);
    const done = new Set(rows.map((row) => row.version));
    const applied: number[] = [];
    for (const migration of [...list].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql(schema));
      await client.query(`INSERT INTO ${s}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
    return { schema, applied };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

import pg from 'pg';

// int8 (bigint) columns arrive as strings by default; keep them as strings and convert where needed.

/** Creates the database named in `url` when it is missing (connecting to the `postgres` database to do so). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new Error(`DATABASE_URL names no database: ${url}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      try {
        await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
      } catch (error) {
        // Another process created it first.
        if ((error as { code?: string }).code !== '42P04') throw error;
      }
    }
  } finally {
    await client.end();
  }
}

/** `applicationName` names the pool's connections in pg_stat_activity (the read pool on a replica: `bank-read`). */
export function createPool(url: string, max = 10, options: { applicationName?: string } = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, ...(options.applicationName ? { application_name: options.applicationName } : {}) });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it.
  });
  // A client checked out of the pool (a projector batch, a DDL transaction) whose connection dies (PostgreSQL
  // restarted: 57P01) emits 'error' besides failing its query; with no listener that event would end the process.
  // The query's caller sees the failure; the client is discarded when it is released with the error.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Runs idempotent DDL (CREATE … IF NOT EXISTS) under a transaction-scoped advisory lock named `name`: processes starting
 * at the same moment (a cluster, a standby) would otherwise race on the catalog ("duplicate key value violates unique
 * constraint pg_namespace_nspname_index") even though each statement says IF NOT EXISTS.
 */
export async function runDdl(pool: pg.Pool, name: string, sql: string): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', ['bank.ddl', name]);
    await client.query(sql);
  });
}

/** How a transaction starts: read-write, or a read-only snapshot (several reads as of one instant). */
export type TransactionStart = 'BEGIN' | 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/**
 * Runs `work` in one transaction on a client of the pool: COMMIT when it returns, ROLLBACK when it throws (its
 * error is what the caller sees, not a failed ROLLBACK's), and the client back to the pool either way.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin: TransactionStart = 'BEGIN'): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** A connection string without its password, for logs and messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

import pg from 'pg';
import { watchStalledConnections } from './stalledConnections';

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

/** How long a new connection may take to be established before it is given up (and the next try starts afresh). */
export const CONNECT_TIMEOUT_MS = 5_000;
/** A connection checked out this long makes the pool probe the server (stalledConnections.ts). */
export const STALL_PROBE_AFTER_MS = 3_000;
/** The probe's bound: a fresh connection and SELECT 1. */
export const STALL_PROBE_MS = 3_000;

/**
 * A client that gives up connecting after CONNECT_TIMEOUT_MS: in a network that drops packets a connection attempt
 * otherwise waits on SYN retransmissions (1, 2, 4, 8, 16 s apart), so when the network comes back the next try may
 * be 16 s away. Set on the client, not on the pool: the pool's own connectionTimeoutMillis would also bound the wait
 * for a free slot under load. node-postgres reports the timeout as a bare 'timeout expired': it is given SQLSTATE
 * 08001 (could not establish a connection) so that every reader of connection errors knows it for one.
 *
 * No TCP keepalive with a short delay here: the clients made from `pool.options` include the leader locks' sessions,
 * and a keepalive that gives up on an idle session during a partition drops the lock on this side only — the server,
 * not told, keeps it, and no instance could lead again until the server noticed.
 */
class BankClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    const options = typeof config === 'string' ? { connectionString: config } : (config ?? {});
    super({ ...options, connectionTimeoutMillis: options.connectionTimeoutMillis || CONNECT_TIMEOUT_MS });
  }

  override connect(): Promise<pg.Client>;
  override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
  override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
    if (callback) {
      const done = callback as (err: Error | null, c?: pg.Client) => void;
      return super.connect(((err: Error | null, c?: pg.Client) => done(err ? connectError(err) : null, c)) as (err: Error) => void);
    }
    return super.connect().catch((error: unknown) => {
      throw connectError(error as Error);
    });
  }
}

function connectError(error: Error): Error {
  if (error.message !== 'timeout expired') return error;
  return Object.assign(new Error(`Connection terminated: no connection to PostgreSQL within ${CONNECT_TIMEOUT_MS} ms`, { cause: error }), { code: '08001' });
}

/**
 * `applicationName` names the pool's connections in pg_stat_activity (the read pool on a replica: `bank-read`).
 * The pool's connections time out connecting (CONNECT_TIMEOUT_MS), and connections stalled on a server that stopped
 * answering are destroyed once a probe confirms it (stalledConnections.ts).
 */
export function createPool(url: string, max = 10, options: { applicationName?: string; onStalledDestroyed?: (count: number) => void } = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    Client: BankClient,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it.
  });
  // A client checked out of the pool (a projector batch, a DDL transaction) whose connection dies (PostgreSQL
  // restarted: 57P01) emits 'error' besides failing its query; with no listener that event would end the process.
  // The query's caller sees the failure; the client is discarded when it is released with the error.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  watchStalledConnections(pool, { stallMs: STALL_PROBE_AFTER_MS, probeMs: STALL_PROBE_MS, ...(options.onStalledDestroyed ? { onDestroyed: options.onStalledDestroyed } : {}) });
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

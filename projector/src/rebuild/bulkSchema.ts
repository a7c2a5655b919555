import pg from 'pg';
import type { Statement } from '../changes/changeStatements';
import { runStatement } from '../changes/writeChanges';
import { checkOut } from '../runner/pooledClient';
import type { ProjectorLogger } from '../runner/projectorLogger';
import { INTEREST_DAYS_BY_POSITION_INDEX } from '../schema/interestMigration';
import { INTEREST_DAY_BALANCES_BY_DATE_INDEX } from '../schema/interestMarkMigration';
import { schemaIdent } from '../schema/readModelSchema';

/** What a build schema lost for its bulk load, and gets back once loaded. */
export interface BulkState {
  readonly schema: string;
  /** The projections' tables, quoted and qualified. */
  readonly tables: readonly string[];
  /** Secondary index definitions (`CREATE INDEX …`), in migration order. */
  readonly indexes: readonly string[];
  /** The table (quoted and qualified, as in `tables`) of each of `indexes`. */
  readonly indexTables: readonly string[];
  readonly unlogged: boolean;
  /** The tables made UNLOGGED for the load (quoted and qualified): with `unlogged`, all but those loaded logged. */
  readonly unloggedTables: readonly string[];
  /** The primary keys dropped for the load (keyAfterLoad tables), built again once it is loaded. */
  readonly keys: readonly DroppedKey[];
}

/** A primary key a bulk load goes without: built after it, then the updates kept for it applied. */
export interface DroppedKey {
  /** Unqualified table name (as the catalog and the projections name it). */
  readonly name: string;
  /** The table, quoted and qualified (as in BulkState.tables). */
  readonly table: string;
  /** The constraint's (and its index's) name. */
  readonly constraint: string;
  readonly column: string;
}

/**
 * A load without primary keys found what only a key would have caught: a row inserted twice (its key built after
 * the load is not unique), or an update whose row was missing when it came. The load is then done again with its
 * keys, whose statements handle or name it (rebuildProjections).
 */
export class KeysAfterLoadRefused extends Error {
  override readonly name = 'KeysAfterLoadRefused';
}

const quote = (schema: string, table: string) => `${schemaIdent(schema)}.${pg.escapeIdentifier(table)}`;

/**
 * Secondary indexes the load's own statements probe, kept through it: without one, each probe becomes a scan
 * that grows as the load goes. interest_days by accrued position dates every money event of the interest
 * projection (interestBatch.ts); the table holds a row a business day, so keeping its index costs nothing, while
 * dropping it made the rebuild of the generated 100k-customer bank spend 140 s of its PostgreSQL time scanning it.
 * interest_day_balances by date gives each accrual the rows it folds (a day's moves), where a scan would read every
 * row the load wrote and deleted before (no vacuum runs in between).
 */
export const INDEXES_KEPT_FOR_THE_LOAD: ReadonlySet<string> = new Set([INTEREST_DAYS_BY_POSITION_INDEX, INTEREST_DAY_BALANCES_BY_DATE_INDEX]);

/**
 * Strips a freshly migrated build schema down for a bulk load: its secondary indexes are dropped, to be built once
 * over the full tables at the end (much cheaper than maintained row by row), but for those the load probes
 * (INDEXES_KEPT_FOR_THE_LOAD). The primary keys stay (the load's updates find rows by them) but those of
 * `keysAfterLoad` (tables declared keyAfterLoad: each row inserted once at a random key, whose index would take
 * every insert to another of its pages; their updates of earlier batches' rows wait for the key, see bulkLoad and
 * finishBulkLoad), and so do the CHECK
 * constraints: they cost a few comparisons per row, refuse a bad
 * row in the batch that writes it (where the event is named), and adding one back later would scan the table in
 * a transaction holding a transaction id — see finishBulkLoad for why that matters.
 *
 * With `unlogged`, the tables also stop writing WAL until finishBulkLoad makes them logged again. The crash story:
 * PostgreSQL empties an unlogged table after a crash of the server; that can only hit a build schema
 * (`rm_build_<n>`), which no reader uses and which is never resumed: the next rebuild drops it and starts from
 * position 0. The tables are logged again (their whole contents written to WAL, so replicas get them too) before
 * the swap makes them the live read models. Not the tables of `loggedDuringLoad`: those the load only appends to
 * (by COPY, with no key or one that grows with the log) stay logged, because COPY writes one WAL record per page of
 * rows, while making a table logged writes one per row and builds its indexes again (the journal of a 50,000-customer
 * bank: 5–6 s to make logged against 1–2 s more for its COPYs logged).
 */
export async function prepareBulkLoad(
  pool: pg.Pool,
  schema: string,
  tables: readonly string[],
  unlogged: boolean,
  keysAfterLoad: readonly string[] = [],
  loggedDuringLoad: readonly string[] = [],
): Promise<BulkState> {
  const { rows } = await pool.query<{ indexname: string; indexdef: string; tablename: string }>(
    `SELECT i.indexname, i.indexdef, i.tablename FROM pg_indexes i JOIN pg_class c ON c.relname = i.indexname AND c.relnamespace = $1::text::regnamespace
      WHERE i.schemaname = $1 AND i.tablename = ANY ($2::text[])
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.connamespace = $1::text::regnamespace AND k.conname = i.indexname)
        AND NOT i.indexname = ANY ($3::text[])
      ORDER BY c.oid`,
    [schema, tables, [...INDEXES_KEPT_FOR_THE_LOAD]],
  );
  for (const row of rows) await pool.query(`DROP INDEX ${schemaIdent(schema)}.${pg.escapeIdentifier(row.indexname)}`);
  const keyed = await pool.query<{ table_name: string; constraint_name: string; column_name: string }>(
    `SELECT r.relname AS table_name, k.conname AS constraint_name, a.attname AS column_name
       FROM pg_constraint k JOIN pg_class r ON r.oid = k.conrelid JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum = k.conkey[1]
      WHERE k.connamespace = $1::text::regnamespace AND k.contype = 'p' AND cardinality(k.conkey) = 1 AND r.relname = ANY ($2::text[])
      ORDER BY r.relname`,
    [schema, keysAfterLoad.filter((table) => tables.includes(table))],
  );
  const keys = keyed.rows.map((row) => ({ name: row.table_name, table: quote(schema, row.table_name), constraint: row.constraint_name, column: row.column_name }));
  for (const key of keys) await pool.query(`ALTER TABLE ${key.table} DROP CONSTRAINT ${pg.escapeIdentifier(key.constraint)}`);
  const qualified = tables.map((table) => quote(schema, table));
  const unloggedTables = unlogged ? tables.filter((table) => !loggedDuringLoad.includes(table)).map((table) => quote(schema, table)) : [];
  for (const table of unloggedTables) await pool.query(`ALTER TABLE ${table} SET UNLOGGED`);
  return { schema, tables: qualified, indexes: rows.map((row) => row.indexdef), indexTables: rows.map((row) => quote(schema, row.tablename)), unlogged, unloggedTables, keys };
}

/** The catalog's view of the keys a load goes without (loadTableCatalog): table → key column. */
export function keysOf(state: Pick<BulkState, 'keys'>): Map<string, string> {
  return new Map(state.keys.map((key) => [key.name, key.column]));
}

/**
 * Builds a dropped primary key again and applies the updates kept for it, in log order. A key that is not unique,
 * or an update whose row did not exist before it, refuses the load (KeysAfterLoadRefused).
 */
async function restoreKey(client: pg.ClientBase, key: DroppedKey, unlogged: boolean, afterLoad: readonly Statement[]): Promise<void> {
  const constraint = pg.escapeIdentifier(key.constraint);
  try {
    if (unlogged) await client.query(`ALTER TABLE ${key.table} ADD CONSTRAINT ${constraint} PRIMARY KEY (${pg.escapeIdentifier(key.column)})`);
    else {
      await client.query(`CREATE UNIQUE INDEX CONCURRENTLY ${constraint} ON ${key.table} (${pg.escapeIdentifier(key.column)})`);
      await client.query(`ALTER TABLE ${key.table} ADD CONSTRAINT ${constraint} PRIMARY KEY USING INDEX ${constraint}`);
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === '23505') throw new KeysAfterLoadRefused(`${key.table} holds a key twice: ${(error as { detail?: string }).detail ?? (error as Error).message}`);
    throw error;
  }
  for (const statement of afterLoad) {
    const { rows } = await runStatement<{ key: string }>(client, statement);
    if (rows.length > 0) throw new KeysAfterLoadRefused(`${key.table}: an update came before its row ${rows[0]!.key} was inserted`);
  }
}

/**
 * Gives a loaded build schema back what prepareBulkLoad took: the tables logged (when they were not), their indexes
 * built, statistics.
 *
 * Beside a running bank (tables logged throughout) each index is built CONCURRENTLY. Why concurrently, in a schema
 * nobody reads: the PostgreSQL event store shows a reader of the global log only events of transactions below the
 * oldest transaction still running (its visibility fence, docs/eventstore.md), and a plain CREATE INDEX (like SET
 * LOGGED, or adding a CHECK) holds a transaction id while it scans the table — every subscriber of the log (the live
 * projector, the worker) would stand still for that long. CREATE INDEX CONCURRENTLY builds without holding one (two
 * scans of the table, and waits for older transactions: with two lanes, a build may wait between its phases for
 * the other lane's, which costs time, not correctness).
 *
 * An unlogged build is for a load with nothing live (rebuildProjections' `unlogged`): SET LOGGED holds a
 * transaction id anyway, so the fence is no reason there; each table is made logged and its indexes built plainly
 * (one scan, PostgreSQL's parallel workers).
 *
 * Either way the tables are spread over `lanes` connections (default 2), largest first, each table's indexes then
 * its statistics on one of them: one connection after the other, the generated 30,000-customer bank's indexes took
 * 13 s of a 63 s rebuild, most of it one core scanning and sorting while the other waited.
 */
export async function finishBulkLoad(
  pool: pg.Pool,
  state: BulkState,
  options: { readonly lanes?: number; readonly logger?: ProjectorLogger; readonly afterLoad?: ReadonlyMap<string, readonly Statement[]> } = {},
): Promise<void> {
  const { rows } = await pool.query<{ size: string }>(`SELECT pg_total_relation_size(t::regclass)::text AS size FROM unnest($1::text[]) AS t`, [state.tables]);
  const queue = state.tables.map((table, index) => ({ table, size: BigInt(rows[index]!.size) })).sort((a, b) => (a.size === b.size ? 0 : a.size > b.size ? -1 : 1));
  const lanes = Math.max(1, Math.min(options.lanes ?? 2, queue.length, (pool.options.max ?? 10) - 1));
  const lane = async (client: pg.ClientBase, walCompression: string | null) => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      let clock = performance.now();
      const lap = () => {
        const now = performance.now();
        const ms = Math.round(now - clock);
        clock = now;
        return ms;
      };
      const loggedMs = state.unloggedTables.includes(next.table) ? (await client.query(`ALTER TABLE ${next.table} SET LOGGED`), lap()) : 0;
      const key = state.keys.find((dropped) => dropped.table === next.table);
      const updates = key ? (options.afterLoad?.get(key.name) ?? []) : [];
      if (key) await restoreKey(client, key, state.unlogged, updates);
      const keyMs = key ? lap() : undefined;
      for (const [index, definition] of state.indexes.entries()) {
        if (state.indexTables[index] !== next.table) continue;
        await client.query(state.unlogged ? definition : definition.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX CONCURRENTLY '));
      }
      const indexesMs = lap();
      await client.query(`ANALYZE ${next.table}`);
      options.logger?.info(
        { table: next.table, bytes: Number(next.size), walCompression, loggedMs, ...(key ? { keyMs, updatesAfterLoad: updates.length } : {}), indexesMs, analyzeMs: lap() },
        'rebuild: a table made ready',
      );
    }
  };
  const results = await Promise.allSettled(Array.from({ length: lanes }, () => onConnection(pool, lane)));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Runs `work` on a connection of its own with room for index builds' sorts and its WAL compressed (compressWal; the
 * method given to `work`, null when the server's setting stands).
 */
async function onConnection(pool: pg.Pool, work: (client: pg.ClientBase, walCompression: string | null) => Promise<void>): Promise<void> {
  const pooled = await checkOut(pool);
  const { client } = pooled;
  let walCompression: string | null = null;
  try {
    await client.query(`SET maintenance_work_mem = '256MB'`);
    walCompression = await compressWal(client);
    await work(client, walCompression);
  } finally {
    await client.query(walCompression ? 'RESET maintenance_work_mem; RESET wal_compression' : 'RESET maintenance_work_mem').catch(() => undefined);
    pooled.release();
  }
}

/**
 * Compresses the WAL this session writes, lz4 where the server has it (else pglz): an index build writes every page of
 * the index to the WAL, and an index's pages compress several times over (the journal's index by account and position:
 * 120 MB of WAL, 23 MB with lz4), so the index phase writes that much less beside the tables made logged. A role
 * that may not set it (wal_compression is a superuser's setting unless granted) builds with the server's setting.
 * The method set, or null.
 */
export async function compressWal(client: pg.ClientBase): Promise<string | null> {
  for (const method of ['lz4', 'pglz']) {
    try {
      await client.query(`SET wal_compression = ${method}`);
      return method;
    } catch {
      // Not built with this method, or not allowed: the next one, or the server's setting.
    }
  }
  return null;
}


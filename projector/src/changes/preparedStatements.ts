import type pg from 'pg';
import type { Statement } from './changeStatements';
import { renderStatement, sqlLiteral } from './sqlLiterals';

/** The prefix of the statements this module prepares (nothing else on a connection uses it). */
const PREFIX = 'bank_batch_';
/** How many statement shapes one connection keeps prepared; past it the least recently used one is deallocated. */
export const MAX_PREPARED = 200;
/**
 * How long a connection keeps its plans. A generic plan is made for the tables as they are when it is made, and a
 * server whose tables are never analysed again (autovacuum off) would keep it while they grow: the statements are
 * prepared again after this long, so a plan follows the tables' size within a minute.
 */
export const PLAN_LIFETIME_MS = 60_000;
/**
 * The plans are also made again when the log has grown this many times over since they were made (by at least
 * PLAN_GROWTH_MIN_EVENTS events). The read models grow with the log, and a table that was a few hundred rows when its
 * plan was made is read whole by that plan (a hash join over a scan of the table, cheaper than probing its key at
 * that size) for as long as the plan lives: a new bank's projector, or a rebuild, filling its tables from empty, would
 * scan rm.transactions on every batch for up to a minute while it grows by tens of thousands of rows
 * (docs/benchmarks.md, "Plans made again as the tables grow"). Made again at each doubling, a plan is soon one that
 * probes the keys, and the plans are made only a few dozen times in a log of millions. (PostgreSQL's global position
 * counts events, EventStoreDB's bytes: either way, twice the position is about twice the log.)
 */
export const PLAN_GROWTH_FACTOR = 2n;
export const PLAN_GROWTH_MIN_EVENTS = 500n;

const PARAMETER = /\$(\d+)/g;
const UNTYPED_PARAMETER = /\$\d+(?!\d|::)/;

/**
 * True when PREPARE can infer every parameter's type from the text: each of `$1` … `$n` (n = the values' count)
 * appears, each time with a cast (`$3::uuid[]`).
 */
export function preparable(statement: Statement): boolean {
  const count = statement.values.length;
  if (count === 0 || UNTYPED_PARAMETER.test(statement.text)) return false;
  const seen = new Set<number>();
  for (const match of statement.text.matchAll(PARAMETER)) seen.add(Number(match[1]));
  if (seen.size !== count) return false;
  for (let n = 1; n <= count; n += 1) if (!seen.has(n)) return false;
  return true;
}

/**
 * The statements of a connection's batch scripts, prepared on the server once per shape (`PREPARE … AS <text>`) and
 * run as `EXECUTE name(<values as literals>)`: the script stays one simple query (one round trip), and the server
 * plans each shape once per PLAN_LIFETIME_MS instead of once per batch (with `plan_cache_mode =
 * force_generic_plan` in the batch's transaction: every statement here reads its rows through `unnest` of array
 * parameters and finds them by key, so the plan does not depend on the arrays' values). Planning was about a quarter of
 * the projector's server time per batch (docs/benchmarks.md, "Plans").
 *
 * PREPARE is not transactional: a prepared statement outlives the rollback of the script that made it. When a
 * script fails, which of its PREPAREs ran is unknown, so the caller calls `discard`, which deallocates every
 * statement of this prefix the server holds for the connection and starts again.
 */
export class PreparedStatements {
  /** Text → name, least recently used first. */
  private readonly names = new Map<string, string>();
  private counter = 0;
  private since = 0;
  /** The log's global position when the plans were made (0n: not known). */
  private sincePosition = 0n;

  constructor(private readonly now: () => number = Date.now) {}

  /** How many shapes are prepared. */
  get size(): number {
    return this.names.size;
  }

  /**
   * Starts a script whose batch ends at the log's global position `position`: once the plans have lived
   * PLAN_LIFETIME_MS, or the log has grown PLAN_GROWTH_FACTOR times over since they were made, deallocates them (they
   * are prepared again as used).
   */
  begin(parts: string[], position = 0n): void {
    const now = this.now();
    const grown = position - this.sincePosition >= PLAN_GROWTH_MIN_EVENTS && position >= this.sincePosition * PLAN_GROWTH_FACTOR;
    if (this.names.size === 0 || now - this.since >= PLAN_LIFETIME_MS || grown) {
      for (const name of this.names.values()) parts.push(`DEALLOCATE ${name}`);
      this.names.clear();
      this.since = now;
      this.sincePosition = position;
    }
  }

  /** Adds the statement to the script: EXECUTE of its prepared shape (prepared first when new), or inlined. */
  add(statement: Statement, parts: string[]): void {
    let name = this.names.get(statement.text);
    if (name === undefined) {
      if (!preparable(statement)) {
        parts.push(renderStatement(statement.text, statement.values));
        return;
      }
      if (this.names.size >= MAX_PREPARED) {
        const [text, oldest] = this.names.entries().next().value as [string, string];
        this.names.delete(text);
        parts.push(`DEALLOCATE ${oldest}`);
      }
      this.counter += 1;
      name = `${PREFIX}${this.counter}`;
      parts.push(`PREPARE ${name} AS ${statement.text}`);
    } else {
      this.names.delete(statement.text);
    }
    this.names.set(statement.text, name);
    parts.push(`EXECUTE ${name}(${statement.values.map(sqlLiteral).join(', ')})`);
  }

  /** After a failed script: deallocates this prefix's statements on the server, and forgets them here. */
  async discard(client: pg.ClientBase): Promise<void> {
    this.names.clear();
    this.sincePosition = 0n;
    const { rows } = await client.query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE starts_with(name, $1)`, [PREFIX]);
    if (rows.length > 0) await client.query(rows.map((row) => `DEALLOCATE ${row.name}`).join(';\n'));
  }
}

const byClient = new WeakMap<pg.ClientBase, PreparedStatements>();

/** The prepared statements of a connection (a new connection starts with none). */
export function preparedStatementsOf(client: pg.ClientBase): PreparedStatements {
  let prepared = byClient.get(client);
  if (!prepared) byClient.set(client, (prepared = new PreparedStatements()));
  return prepared;
}

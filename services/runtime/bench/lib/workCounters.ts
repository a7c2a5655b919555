import { createConnection } from 'node:net';
import type pg from 'pg';
import { cpuMsOf, parentPidOf, processTree, reapedCpuMsOf } from './processTree';

/** The calls of each Redis command a server has run (INFO commandstats). */
export async function redisCommandCounts(port: number): Promise<Map<string, number>> {
  const text = await new Promise<string>((resolve, reject) => {
    const socket = createConnection(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('error', reject);
    socket.on('end', () => resolve(data));
    socket.write('INFO commandstats\r\nQUIT\r\n');
  });
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/cmdstat_([a-z|_-]+):calls=(\d+)/g)) counts.set(match[1]!, Number(match[2]));
  return counts;
}

/** The calls made between two counts, without the counting's own INFO and QUIT. */
export function commandDifference(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  const result = new Map<string, number>();
  for (const [name, calls] of after) {
    const delta = calls - (before.get(name) ?? 0);
    if (delta > 0 && name !== 'info' && name !== 'quit') result.set(name, delta);
  }
  return result;
}

/** Transactions committed in `database` so far (pg_stat_database, read afresh). */
export async function xactCommits(pool: pg.Pool, database: string): Promise<number> {
  await pool.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await pool.query<{ n: string }>('SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = $1', [database]);
  return Number(rows[0]!.n);
}

/**
 * Rows read by sequential scans of the read models (schema rm) so far, in the database `pool` is connected to
 * (pg_stat_user_tables, read afresh). A projector statement that probes its keys reads none; one whose plan reads a
 * table whole reads every row of it on every batch (docs/benchmarks.md, "Plans made again as the tables grow").
 */
export async function readModelScanRows(pool: pg.Pool): Promise<number> {
  await pool.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await pool.query<{ n: string }>("SELECT coalesce(sum(seq_tup_read), 0)::text AS n FROM pg_stat_user_tables WHERE schemaname = 'rm'");
  return Number(rows[0]!.n);
}

/**
 * The CPU the PostgreSQL backends serving `database` use from now until `stop()`: those alive at the end, less what
 * they had used at the start, and those that ended in between, which the postmaster has reaped by then (its
 * children's CPU grows by their whole life, so what they had used at the start is taken out). Counting only the
 * backends alive at the start made a backend that the bank's pool closed in the middle take its whole CPU out of the
 * count (negative figures). The reaped part also holds any other backend that ended meanwhile (an autovacuum
 * worker): on the bench's server that is the bench database's own upkeep.
 */
export async function startPostgresCpu(server: pg.Pool, database: string): Promise<{ stop(): Promise<number> }> {
  const backends = async () => (await server.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database])).rows.map((row) => row.pid);
  // The postmaster: the parent of the counting connection's own backend (there whether or not the bank holds one yet).
  const { rows } = await server.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const postmaster = parentPidOf(rows[0]!.pid);
  const first = await backends();
  const reaped = () => (postmaster === undefined ? 0 : reapedCpuMsOf(postmaster));
  const atStart = new Map(first.map((pid) => [pid, cpuMsOf(pid)]));
  const reapedAtStart = reaped();
  return {
    async stop() {
      const alive = await backends();
      const reapedSince = reaped() - reapedAtStart;
      const aliveNow = new Set(alive);
      let used = reapedSince;
      for (const pid of alive) used += cpuMsOf(pid) - (atStart.get(pid) ?? 0);
      for (const [pid, ms] of atStart) if (!aliveNow.has(pid)) used -= ms;
      return used;
    },
  };
}

export interface WorkCount {
  readonly pgTransactions: number;
  readonly redisCommands: number;
  readonly bankCpuMs: number;
  /** The CPU of the PostgreSQL backends serving the bench's database (startPostgresCpu). */
  readonly postgresCpuMs: number;
}

/**
 * Counts the work done from now until `stop()`: the database's committed transactions (the counting's own two reads
 * taken out), the private Redis's commands, the CPU of the bank's process tree and of PostgreSQL's backends.
 */
export async function startWorkCount(options: { server: pg.Pool; database: string; redisPort: number; bankPid: number }): Promise<{ stop(): Promise<WorkCount> }> {
  const pids = processTree(options.bankPid);
  const cpu = () => pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0);
  const redisBefore = await redisCommandCounts(options.redisPort);
  const postgresCpu = await startPostgresCpu(options.server, options.database);
  const cpuBefore = cpu();
  const xactBefore = await xactCommits(options.server, options.database);
  return {
    async stop() {
      const xactAfter = await xactCommits(options.server, options.database);
      const cpuAfter = cpu();
      const postgresCpuMs = await postgresCpu.stop();
      const redisAfter = await redisCommandCounts(options.redisPort);
      const redisCommands = [...commandDifference(redisAfter, redisBefore).values()].reduce((a, b) => a + b, 0);
      return { pgTransactions: xactAfter - xactBefore, redisCommands, bankCpuMs: cpuAfter - cpuBefore, postgresCpuMs };
    },
  };
}

/** Who a Redis command line of MONITOR serves, by the key it names (REDIS_PREFIX left out). */
export function redisCommandOwner(line: string): string {
  // A transfer's one read names both: the pin limit's counters and its Idempotency-Key's record.
  if (line.includes('idem:') && line.includes('rl:pin')) return 'wrong-pin limit and idempotency record, one read (request path)';
  if (line.includes('idem:')) return 'idempotency records (request path)';
  if (line.includes('rl:pin')) return 'wrong-pin limit (request path)';
  if (line.includes('rl:')) return 'rate limits (request path)';
  // BullMQ's keys are <REDIS_PREFIX without its colon>:<queue>:…, the bank's queues named in queueNames.ts and mail.
  const queue = /"[^"\s]*:(mail|settlement|maintenance)(?::[^"]*)?"/.exec(line);
  if (queue) return `BullMQ queue "${queue[1]}"`;
  return 'other';
}

/**
 * MONITOR on a Redis server until `stop()`: every command it runs (those a script runs too), counted by
 * redisCommandOwner. Only for counting runs: MONITOR slows the server down.
 */
export function monitorRedis(port: number): { stop(): Promise<Map<string, number>> } {
  const counts = new Map<string, number>();
  const socket = createConnection(port, '127.0.0.1');
  let rest = '';
  socket.on('data', (chunk) => {
    const lines = (rest + chunk.toString()).split('\r\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('+') || line === '+OK') continue;
      if (line.includes('"monitor"') || line.includes('"info"') || line.includes('"quit"')) continue;
      const owner = redisCommandOwner(line);
      counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
  });
  socket.on('error', () => undefined);
  socket.write('MONITOR\r\n');
  return {
    async stop() {
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      return counts;
    },
  };
}

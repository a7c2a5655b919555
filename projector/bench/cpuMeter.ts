import { readFileSync } from 'node:fs';
import type pg from 'pg';

/** CPU seconds (user + system) a process has used, from /proc (Linux); 0 when it is gone or unreadable. */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Where the CPU goes during a phase: this process, the projector's, and the PostgreSQL backends serving the bench
 * database (sampled from /proc at the start and the end of the phase; a backend that ends in between is lost).
 */
export async function startCpuMeter(pool: pg.Pool, database: string, projectorPid: number | undefined) {
  const backends = async () => {
    const { rows } = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
    return rows.map((row) => row.pid);
  };
  const startPids = await backends();
  const before = new Map(startPids.map((pid) => [pid, cpuSecondsOf(pid)]));
  const selfBefore = process.cpuUsage();
  const projectorBefore = projectorPid ? cpuSecondsOf(projectorPid) : 0;
  const started = performance.now();
  return async () => {
    const seconds = (performance.now() - started) / 1000;
    const self = process.cpuUsage(selfBefore);
    let postgres = 0;
    for (const pid of new Set([...startPids, ...(await backends())])) postgres += Math.max(0, cpuSecondsOf(pid) - (before.get(pid) ?? 0));
    const projector = projectorPid ? cpuSecondsOf(projectorPid) - projectorBefore : 0;
    const share = (cpu: number) => Math.round((cpu / seconds) * 100);
    return {
      seconds,
      bench: (self.user + self.system) / 1e6,
      projector,
      postgres,
      /** Percent of one core over the phase. */
      text: `cpu (% of one core): bench process ${share((self.user + self.system) / 1e6)}, projector process ${share(projector)}, postgres backends ${share(postgres)}`,
    };
  };
}

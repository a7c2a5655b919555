import { readdirSync, readFileSync } from 'node:fs';

/** The pids of `root` and every descendant, read from /proc (Linux). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentPidOf(Number(entry));
    if (parent === undefined) continue; // The process ended while we looked.
    const list = children.get(parent) ?? [];
    list.push(Number(entry));
    children.set(parent, list);
  }
  const all: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    all.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return all;
}

/** Resident memory of one process in bytes (0 when it is gone). */
function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples the summed RSS of a process tree every `everyMs` and remembers the peak. */
export function sampleTreeRss(root: number, everyMs = 250): { peakBytes(): number; stop(): void } {
  let peak = 0;
  const sample = () => {
    const total = processTree(root).reduce((sum, pid) => sum + rssOf(pid), 0);
    if (total > peak) peak = total;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return { peakBytes: () => peak, stop: () => clearInterval(timer) };
}

const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command (its 3rd field is index 0); undefined when the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command may hold spaces and parentheses: the fields after it follow the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Two clock-tick fields of /proc/<pid>/stat added up, in ms; 0 when the process is gone. */
function ticksMsOf(pid: number, first: number, second: number): number {
  const fields = statFields(pid);
  return fields ? ((Number(fields[first]) + Number(fields[second])) * 1000) / TICKS_PER_SECOND : 0;
}

/** CPU time (user + system, every thread) one process has used, in ms (utime + stime); 0 when it is gone. */
export function cpuMsOf(pid: number): number {
  return ticksMsOf(pid, 11, 12);
}

/**
 * CPU time (user + system) of the children `pid` has waited for, in ms (cutime + cstime): a PostgreSQL backend that
 * exits is reaped by the postmaster, so its CPU moves from its own counters to these. 0 when it is gone.
 */
export function reapedCpuMsOf(pid: number): number {
  return ticksMsOf(pid, 13, 14);
}

/** The parent of `pid` (the postmaster, for a PostgreSQL backend); undefined when it is gone. */
export function parentPidOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : undefined;
}

/** The pids whose command line contains `text` (e.g. a private redis-server's port). */
export function pidsWithCommandLine(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(text)) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

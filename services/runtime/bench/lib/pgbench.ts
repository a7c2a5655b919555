import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * pgbench's built-in TPC-B-like script (three balance updates and a history row per transaction) at `clients`
 * clients for `seconds` on a scratch database of the same server: the reference a transfer is measured against.
 */
export async function runPgbench(options: { host: string; port: number; user: string; seconds: number; clients?: number; scale?: number }): Promise<number> {
  const database = `bench_pgbench_${process.pid}_${Date.now()}`;
  const connection = ['-h', options.host, '-p', String(options.port), '-U', options.user];
  await run('createdb', [...connection, database]);
  try {
    await run('pgbench', [...connection, '-i', '-q', '-s', String(options.scale ?? 16), database], { maxBuffer: 16 * 1024 * 1024 });
    const clients = options.clients ?? 16;
    const { stdout } = await run('pgbench', [...connection, '-c', String(clients), '-j', '2', '-T', String(options.seconds), database], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const match = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout) ?? /tps = ([\d.]+)/.exec(stdout);
    if (!match) throw new Error(`Could not read pgbench's tps from:\n${stdout}`);
    return Number(match[1]);
  } finally {
    await run('dropdb', [...connection, '--if-exists', database]).catch(() => undefined);
  }
}

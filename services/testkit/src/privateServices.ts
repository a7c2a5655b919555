import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * PostgreSQL and Redis servers of a test's own, on free ports, started with the machine's own binaries
 * (/usr/lib/postgresql/<v>/bin, redis-server): the fault tests stop and start them under load without touching the
 * shared servers every other test uses. Always `destroy()` them.
 */
export function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql');
}

/** PostgreSQL refuses to run as root: as root, run its tools (and pgBackRest) as the `postgres` user. */
export async function asPostgres(command: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  if (userInfo().uid === 0) return run('runuser', ['-u', 'postgres', '--', command, ...args], { timeout: 120_000 });
  return run(command, args, { timeout: 120_000 });
}

export interface PrivatePostgres {
  /** A URL of the server's `postgres` database; use `databaseUrl(name)` for another. */
  readonly url: string;
  readonly port: number;
  /** The server's folder (owned by `postgres` when run as root: its socket, log and anything a test puts there). */
  readonly dir: string;
  /** Its data directory (`dir`/data). */
  readonly dataDir: string;
  databaseUrl(name: string): string;
  /** Fast shutdown (connections terminated: 57P01), as a restart or a failover does. */
  stop(): Promise<void>;
  /** Immediate shutdown: no checkpoint, as a crash leaves it. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Whether its postmaster runs (`pg_ctl status`). */
  running(): Promise<boolean>;
  destroy(): Promise<void>;
}

export interface PrivatePostgresOptions {
  /** Lines appended to postgresql.conf after initdb (e.g. archive_command, which -c cannot quote). */
  readonly conf?: Readonly<Record<string, string>>;
  /** Addresses to listen on besides 127.0.0.1 (e.g. the host side of a test's network namespace). */
  readonly listenAddresses?: readonly string[];
  /** Extra initdb arguments (e.g. `--waldir`, `--wal-segsize`). */
  readonly initdbArgs?: readonly string[];
  /**
   * Commits durable as in production (fsync and synchronous_commit on). By default the tests' servers run with both
   * off: faster, and a test that does not crash the machine never needs them.
   */
  readonly durable?: boolean;
}

export async function startPrivatePostgres(options: PrivatePostgresOptions = {}): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const dir = mkdtempSync(path.join(tmpdir(), 'bank-pg-'));
  if (userInfo().uid === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = path.join(dir, 'data');
  const port = await freeTcpPort();
  await asPostgres(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', ...(options.initdbArgs ?? [])]);
  // Clients on the other listen addresses' networks (a test's network namespace) are trusted as on loopback.
  if (options.listenAddresses?.length) appendFileSync(path.join(data, 'pg_hba.conf'), '\nhost all all samenet trust\n');
  if (options.conf) {
    const lines = Object.entries(options.conf).map(([name, value]) => `${name} = '${value.replace(/'/g, "''")}'`);
    appendFileSync(path.join(data, 'postgresql.conf'), `\n${lines.join('\n')}\n`);
  }
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=${['127.0.0.1', ...(options.listenAddresses ?? [])].join(',')} ${options.durable ? '' : '-c fsync=off -c synchronous_commit=off -c full_page_writes=off '}-c max_connections=200`;
  const pgCtl = (...args: string[]) => asPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'server.log'), ...args]);
  const start = () => pgCtl('-o', serverOptions, '-w', 'start');
  await start();
  const databaseUrl = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  let destroyed = false;
  return {
    url: databaseUrl('postgres'),
    port,
    dir,
    dataDir: data,
    databaseUrl,
    stop: async () => void (await pgCtl('-m', 'fast', '-w', 'stop')),
    kill: async () => void (await pgCtl('-m', 'immediate', '-w', 'stop')),
    start: async () => void (await start()),
    running: () => pgCtl('status').then(
      () => true,
      () => false,
    ),
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await pgCtl('-m', 'immediate', '-w', 'stop').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  readonly url: string;
  readonly port: number;
  /** Stops the server; it keeps nothing on disk, so it starts again empty. */
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivateRedis(options: { readonly bindAddresses?: readonly string[] } = {}): Promise<PrivateRedis> {
  const port = await freeTcpPort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', ['127.0.0.1', ...(options.bindAddresses ?? [])].join(' '), '--save', '', '--appendonly', 'no', '--loglevel', 'warning', ...(options.bindAddresses?.length ? ['--protected-mode', 'no'] : [])], { stdio: 'ignore' });
    for (let i = 0; i < 100; i += 1) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.end();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      if (up) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  const stop = async () => {
    const current = child;
    child = undefined;
    if (!current || current.exitCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, stop, destroy: stop };
}

import { execFile } from 'node:child_process';
import { chmod, chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freeTcpPort } from '@bank/testkit';

const run = promisify(execFile);

/** A PostgreSQL server of this test's own (the shared one must never be stopped), in a temporary directory. */
export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  readonly url: string;
  /** Kills the server as a crash would (`pg_ctl stop -m immediate`: no shutdown checkpoint, recovery at start). */
  crash(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and deletes its directory. */
  destroy(): Promise<void>;
}

async function binDir(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql')).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/**
 * initdb + pg_ctl start on a free port (trust authentication, listening on 127.0.0.1 only). As root the server runs
 * as the `postgres` user, as PostgreSQL requires.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await binDir();
  const dir = await mkdtemp(join(tmpdir(), 'bank-private-pg-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
    await chmod(dir, 0o700);
  }
  const as = (command: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args));
  await as('initdb', ['-D', data, '--auth=trust', '-U', 'postgres', '--no-sync', '--encoding=UTF8', '--locale=C.UTF-8']);
  const port = await freeTcpPort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=32MB -c max_connections=40`;
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async crash() {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    start,
    async destroy() {
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { hostKeyFingerprint } from '../sftpTransport';

export const SSHD = '/usr/sbin/sshd';

/** A private OpenSSH server (Debian's openssh-server) for one test file: SFTP only, key login, a temporary host key. */
export interface SshServer {
  readonly port: number;
  readonly username: string;
  /** The temporary directory holding the keys, the config and `remote/` (the SFTP base directory). */
  readonly dir: string;
  readonly remoteDir: string;
  readonly userKeyFile: string;
  /** A key the server does not know. */
  readonly strangerKeyFile: string;
  readonly hostKeySha256: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function keygen(file: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'ach-test', '-f', file], { stdio: 'ignore' });
}

/** Starts `sshd -D -e` as this test's own process on a free port; stop() ends exactly that process. */
export async function startSshServer(): Promise<SshServer> {
  if (!existsSync(SSHD)) throw new Error(`${SSHD} is missing: apt-get install -y openssh-server (.ci/run installs it)`);
  const dir = mkdtempSync(path.join(tmpdir(), 'ach-sshd-'));
  const remoteDir = path.join(dir, 'remote');
  mkdirSync(remoteDir);
  const hostKey = path.join(dir, 'host_key');
  const userKeyFile = path.join(dir, 'user_key');
  const strangerKeyFile = path.join(dir, 'stranger_key');
  keygen(hostKey);
  keygen(userKeyFile);
  keygen(strangerKeyFile);
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(`${userKeyFile}.pub`));
  const hostKeyBlob = Buffer.from(readFileSync(`${hostKey}.pub`, 'utf8').split(' ')[1]!, 'base64');
  const username = userInfo().username;
  // sshd running as root wants its privilege separation directory.
  if (process.getuid?.() === 0 && !existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
  const port = await freePort();
  const config = path.join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${username}`,
      'Subsystem sftp internal-sftp',
      'ForceCommand internal-sftp',
      'AllowTcpForwarding no',
      'X11Forwarding no',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`sshd did not start on port ${port}: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    username,
    dir,
    remoteDir,
    userKeyFile,
    strangerKeyFile,
    hostKeySha256: hostKeyFingerprint(hostKeyBlob),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

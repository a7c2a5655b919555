import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';

export interface BankProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  /** SIGTERM to the whole process group, SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

async function waitUntilReady(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The bank exited with code ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(`${baseUrl}/api/ready`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The bank was not ready within ${timeoutMs} ms`);
}

/**
 * Starts the bank with `command` (run by the shell, in its own process group so that every process it forks is
 * stopped with it) and waits until GET /api/ready answers 200.
 */
export async function startBank(options: {
  readonly command: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly port: number;
  readonly logFile: string;
  readonly readyTimeoutMs?: number;
  /** The address the bank is reached at (127.0.0.1 unless it runs in a network namespace of its own). */
  readonly host?: string;
}): Promise<BankProcess> {
  const log = createWriteStream(options.logFile);
  // `exec`: the shell becomes the command, so the child is the bank's own process (its exit code and signals are the bank's).
  const child = spawn(`exec ${options.command}`, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PORT: String(options.port) },
    shell: true,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const baseUrl = `http://${options.host ?? '127.0.0.1'}:${options.port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (graceMs = 15_000): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }, graceMs);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitUntilReady(baseUrl, child, options.readyTimeoutMs ?? 120_000);
  } catch (error) {
    await stop(2_000);
    throw error;
  }
  return { child, baseUrl, stop };
}

/**
 * The start command with V8's CPU profiler on (node refuses --cpu-prof in NODE_OPTIONS): `npx tsx X` and `node X`
 * become `node --cpu-prof --cpu-prof-dir=D [--import tsx] X`; forked children inherit the flags through execArgv.
 */
export function profiled(command: string, dir: string): string {
  const flags = `--cpu-prof --cpu-prof-dir=${dir}`;
  if (command.startsWith('npx tsx ')) return `node ${flags} --import tsx ${command.slice('npx tsx '.length)}`;
  if (command.startsWith('node ')) return `node ${flags} ${command.slice('node '.length)}`;
  throw new Error(`--profile needs a start command beginning with 'npx tsx ' or 'node ', got: ${command}`);
}

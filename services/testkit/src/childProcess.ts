import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where node_modules/tsx lives). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Child {
  readonly process: ChildProcess;
  /** Everything written on stdout so far. */
  output(): string;
  /** Resolves when stdout contains `text` `times` times (rejects on exit or timeout). */
  waitFor(text: string, options?: { timeoutMs?: number; times?: number }): Promise<void>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
  readonly exited: Promise<number | null>;
}

/**
 * Runs a TypeScript file in a child process, as `node --import tsx <file>` (one process, so SIGKILL kills exactly
 * it, as `npx tsx` would not: that is a parent and a child).
 */
export function spawnTs(file: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const listener of listeners) listener();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let done = false;
  void exited.then(() => {
    done = true;
    for (const listener of listeners) listener();
  });
  const count = (text: string) => stdout.split(text).length - 1;
  return {
    process: child,
    output: () => stdout,
    waitFor(text, options = {}) {
      const times = options.times ?? 1;
      const timeoutMs = options.timeoutMs ?? 30_000;
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (count(text) >= times) {
            cleanup();
            resolve();
          } else if (done) {
            cleanup();
            reject(new Error(`Process exited before printing ${JSON.stringify(text)}\nstdout:\n${stdout}\nstderr:\n${stderr.slice(-4000)}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`Timed out waiting for ${JSON.stringify(text)} x${times}\nstdout:\n${stdout}\nstderr:\n${stderr.slice(-4000)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async kill() {
      if (!done) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!done) child.kill('SIGTERM');
      await exited;
    },
    exited,
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where node_modules/tsx lives). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Child {
  readonly process: ChildProcess;
  /** Everything written on stdout so far. */
  output(): string;
  /**
   * Resolves when stdout contains `text` `times` times (rejects on exit or timeout). With `quiet`, the timeout counts
   * from the last output instead of the call: a process that keeps printing progress is waited for as long as it
   * takes, and one that falls silent for `timeoutMs` is given up on (a slow host stretches the first, not the second).
   */
  waitFor(text: string, options?: { timeoutMs?: number; times?: number; quiet?: boolean }): Promise<void>;
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
        const started = Date.now();
        let seenLength = stdout.length;
        const check = () => {
          if (options.quiet && stdout.length > seenLength) {
            seenLength = stdout.length;
            timer.refresh();
          }
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
          const how = options.quiet ? `${timeoutMs} ms without output (${Date.now() - started} ms in all)` : `${timeoutMs} ms`;
          reject(new Error(`Timed out waiting for ${JSON.stringify(text)} x${times}: ${how}\nstdout:\n${stdout}\nstderr:\n${stderr.slice(-4000)}`));
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

/**
 * Resolves with the first of `texts` the process prints; rejects when it exits before any, or prints nothing at all
 * for `quietMs`. A process that keeps printing its progress is waited for however slow the host; a stuck one is not.
 */
export function firstOutput(child: Child, texts: readonly string[], quietMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let pending = texts.length;
    for (const text of texts) {
      child.waitFor(text, { timeoutMs: quietMs, quiet: true }).then(
        () => resolve(text),
        (error: unknown) => {
          pending -= 1;
          if (pending === 0) reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    }
  });
}

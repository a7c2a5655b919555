import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./projectorChild.ts', import.meta.url));

export interface ProjectorProcess {
  readonly child: ChildProcess;
  /** Every state the process reported, in order. */
  readonly states: string[];
  /** Resolves when the process reports `state`. */
  waitFor(state: string, timeoutMs?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the projector in a child process (node with the tsx loader, so that its pid is the projector's own). */
export function spawnProjector(env: Record<string, string>): ProjectorProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env, NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const states: string[] = [];
  const listeners = new Set<() => void>();
  let buffered = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
      try {
        states.push((JSON.parse(line) as { state: string }).state);
      } catch {
        // not a state line
      }
      for (const listener of listeners) listener();
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    states,
    waitFor(state, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (states.includes(state)) {
            cleanup();
            resolve();
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`projector process did not report ${state} (states: ${states.join(', ')}; stderr: ${stderr.slice(-2000)})`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

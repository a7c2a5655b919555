import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { artifactsDir, repoRoot } from './paths';
import { freeTcpPort } from '@bank/testkit';

export interface ApiServer {
  readonly baseUrl: string;
  readonly logFile: string;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Waits until the server says it is ready on its own output ("BANK READY", main.ts) and then answers GET /api/health.
 * The line comes first because the port was free when it was picked, not when the server bound it: another lane's
 * server that took it meanwhile (the fault tests start and kill banks on free ports) would answer the health check for
 * a server that never listened (once in CI: healthy, then ECONNREFUSED, and this server's log empty).
 */
async function waitForHealth(baseUrl: string, child: ChildProcess, logFile: string, timeoutMs: number, ready: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The API server exited with code ${child.exitCode} before it was healthy; see ${logFile}`);
    if (!ready()) {
      lastError = 'it has not said BANK READY';
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The API server did not answer /api/health within ${timeoutMs} ms (${lastError}); see ${logFile}`);
}

/**
 * Starts the real server (`npx tsx services/runtime/src/main.ts`) on a free port with the given environment, waits for
 * GET /api/health, and returns its base URL. Output goes to artifacts/e2e-server-<port>.log. `stop()` sends SIGTERM
 * to the server's process group, then SIGKILL after 5 s.
 */
export async function startApiServer(env: Record<string, string>, options: { healthTimeoutMs?: number; port?: number } = {}): Promise<ApiServer> {
  // A caller that must name the server's address beforehand (APP_ORIGIN for the links of its e-mails) picks the port.
  const port = options.port ?? (await freeTcpPort());
  const baseUrl = `http://127.0.0.1:${port}`;
  mkdirSync(artifactsDir, { recursive: true });
  const logFile = path.join(artifactsDir, `e2e-server-${port}.log`);
  const log = createWriteStream(logFile);
  const child = spawn('npx', ['tsx', 'services/runtime/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let saidReady = false;
  let heard = '';
  const onOutput = (chunk: Buffer) => {
    heard = (heard + chunk.toString('utf8')).slice(-200);
    if (!/BANK READY/.test(heard)) return;
    saidReady = true;
    child.stdout?.off('data', onOutput);
  };
  child.stdout?.on('data', onOutput);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const killer = setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 5000);
      await exited(child);
      clearTimeout(killer);
    }
    log.end();
  };

  try {
    await waitForHealth(baseUrl, child, logFile, options.healthTimeoutMs ?? 90_000, () => saidReady);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, logFile, stop };
}

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot, webRoot } from './paths';

const run = promisify(execFile);

/** What the web build is made from: when any of it is newer than web/dist/index.html, the build is redone. */
const SOURCES = ['web/src', 'web/public', 'web/build', 'web/index.html', 'web/vite.config.ts', 'web/package.json', 'domain/src'];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** True when web/dist is missing or older than any source file. */
export function webBuildIsStale(): boolean {
  const index = path.join(webRoot, 'dist', 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(repoRoot, source)) > built);
}

const LOCK_DIR = path.join(os.tmpdir(), 'bank-web-build.lock');
const STALE_LOCK_MS = 10 * 60 * 1000;

/** True when the lock names its holder (`<lock>/pid`) and no such process runs: a run killed while it built. */
function lockHolderGone(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(LOCK_DIR, 'pid'), 'utf8'));
  } catch {
    return false; // no holder named (yet): the age decides
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
    } catch {
      const age = existsSync(LOCK_DIR) ? Date.now() - statSync(LOCK_DIR).mtimeMs : 0;
      if (age > STALE_LOCK_MS || lockHolderGone()) rmSync(LOCK_DIR, { recursive: true, force: true });
      else if (Date.now() - started > STALE_LOCK_MS) throw new Error(`Timed out waiting for the web build lock ${LOCK_DIR}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    try {
      writeFileSync(path.join(LOCK_DIR, 'pid'), String(process.pid));
    } catch (error) {
      // Not left behind without its holder's name, where the next run would wait out its age.
      rmSync(LOCK_DIR, { recursive: true, force: true });
      throw error;
    }
    break;
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

/**
 * Builds the web app (vite build → web/dist, which the API serves) when it is missing or stale. Concurrent runs
 * (several e2e runs on one machine) take a lock in the temp directory so only one builds at a time. A lock whose
 * holder is gone (a run killed while it built) is taken over at once: it used to hold the next run for ten minutes.
 */
export async function ensureWebBuild(log: (line: string) => void = console.log): Promise<void> {
  if (!webBuildIsStale()) return;
  await withBuildLock(async () => {
    if (!webBuildIsStale()) return;
    log('e2e: building the web app (vite build)…');
    const started = Date.now();
    // The production build whatever this process runs under: vitest sets NODE_ENV=test, and a build made under it
    // ships React's development code (four times the size, slower), which is not what users get.
    await run('npx', ['vite', 'build', '--logLevel', 'warn'], {
      cwd: webRoot,
      env: { ...process.env, NODE_ENV: 'production' },
      maxBuffer: 16 * 1024 * 1024,
    });
    log(`e2e: web app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
}

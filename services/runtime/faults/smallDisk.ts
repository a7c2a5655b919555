import { execFile } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { processAlive } from './processAlive';

const run = promisify(execFile);
const PREFIX = 'bank-smalldisk-';

/**
 * A small file system of the test's own (a tmpfs mounted with `size=`): PostgreSQL's pg_wal goes there (initdb
 * --waldir), and `fill()` takes all its free space — and keeps taking what is freed — as another process filling a
 * disk would, until `free()`. Needs root (mount). `destroy()` unmounts it; a mount left by a test process that died
 * is unmounted by the next one (its folder is named for the pid).
 */
export interface SmallDisk {
  /** The mount point. */
  readonly dir: string;
  /** An empty folder on it owned by the `postgres` user: initdb's --waldir. */
  readonly walDir: string;
  /** Fills the disk and keeps it full (every 50 ms) until `free()`. */
  fill(): Promise<void>;
  /** Stops filling and removes the filler. */
  free(): Promise<void>;
  destroy(): Promise<void>;
}

async function unmount(dir: string): Promise<void> {
  await run('umount', [dir]).catch(() => run('umount', ['-l', dir]).catch(() => undefined));
  rmSync(dir, { recursive: true, force: true });
}

async function removeStale(): Promise<void> {
  const mounts = readFileSync('/proc/mounts', 'utf8').split('\n').map((line) => line.split(' ')[1] ?? '');
  for (const dir of mounts) {
    const name = path.basename(dir);
    const pid = Number(name.slice(PREFIX.length).split('-')[0]);
    if (name.startsWith(PREFIX) && Number.isInteger(pid) && pid > 0 && !processAlive(pid)) await unmount(dir);
  }
}

/** Writes zeros to `file` until the disk refuses (ENOSPC); returns the bytes written. */
async function fillUp(file: string): Promise<number> {
  const handle = await open(file, 'a');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    for (;;) {
      try {
        const { bytesWritten } = await handle.write(chunk);
        written += bytesWritten;
        if (bytesWritten < chunk.length) return written;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') return written;
        throw error;
      }
    }
  } finally {
    await handle.close();
  }
}

export async function createSmallDisk(sizeMb: number): Promise<SmallDisk> {
  await removeStale().catch(() => undefined);
  const dir = mkdtempSync(path.join(tmpdir(), `${PREFIX}${process.pid}-`));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0755`, 'tmpfs', dir]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`Could not mount a ${sizeMb} MB tmpfs (the WAL disk test needs root): ${(error as Error).message}`, { cause: error });
  }
  const walDir = path.join(dir, 'pg_wal');
  mkdirSync(walDir, { mode: 0o700 });
  const { stdout: uid } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  chownSync(walDir, Number(uid.trim()), Number(gid.trim()));
  const filler = path.join(dir, 'filler');
  let filling: Promise<void> | undefined;
  let keepFull = false;
  return {
    dir,
    walDir,
    async fill() {
      keepFull = true;
      await fillUp(filler);
      filling = (async () => {
        while (keepFull) {
          await fillUp(filler);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
    },
    async free() {
      keepFull = false;
      await filling;
      await rm(filler, { force: true });
    },
    async destroy() {
      keepFull = false;
      await filling?.catch(() => undefined);
      await unmount(dir);
    },
  };
}

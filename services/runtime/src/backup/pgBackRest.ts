import { execFile } from 'node:child_process';
import { userInfo } from 'node:os';
import { promisify } from 'node:util';
import { z } from 'zod';

const run = promisify(execFile);

/**
 * pgBackRest (Debian's `pgbackrest`), the bank's backup and point-in-time recovery of PostgreSQL: full, differential
 * and incremental backups plus the WAL archive (`archive_command = 'pgbackrest --stanza=bank archive-push %p'`), and
 * restores to an instant. Its own configuration file says where the repository and the cluster are
 * (/etc/pgbackrest/pgbackrest.conf, or the file `PGBACKREST_CONFIG` names); see docs/operations.md.
 */
export const backupSettingsSchema = z.object({
  PGBACKREST_STANZA: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a stanza name: letters, digits, _ . -').default('bank'),
  PGBACKREST_CONFIG: z.string().min(1).optional(),
});
export type BackupSettings = z.infer<typeof backupSettingsSchema>;

export type BackupType = 'full' | 'diff' | 'incr';

/** Runs pgBackRest with the settings' stanza and configuration, as the `postgres` user when run as root (it must own what it writes). */
export async function pgBackRest(settings: BackupSettings, args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  const full = [...(settings.PGBACKREST_CONFIG ? [`--config=${settings.PGBACKREST_CONFIG}`] : []), `--stanza=${settings.PGBACKREST_STANZA}`, ...args];
  const options = { timeout: 6 * 60 * 60 * 1000, maxBuffer: 16 * 1024 * 1024 };
  try {
    if (userInfo().uid === 0) return await run('runuser', ['-u', 'postgres', '--', 'pgbackrest', ...full], options);
    return await run('pgbackrest', full, options);
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`pgbackrest ${full.join(' ')} failed: ${(stderr || stdout || (error as Error).message).trim()}`, { cause: error });
  }
}

/** A backup of the cluster (the first one of a stanza is always full), then what the repository holds. */
export async function backupCluster(settings: BackupSettings, type: BackupType): Promise<string> {
  await pgBackRest(settings, [`--type=${type}`, 'backup']);
  return (await pgBackRest(settings, ['info'])).stdout;
}

/** Waits until every WAL written so far is archived (it switches to a new WAL file): what a restore can reach. */
export async function checkArchive(settings: BackupSettings): Promise<void> {
  await pgBackRest(settings, ['check']);
}

/**
 * Restores the cluster's data directory (which must be stopped; `--delta` keeps the files that are already right) to
 * `target`, a PostgreSQL timestamp: recovery replays the archived WAL up to the last commit at or before it, then
 * promotes. Start PostgreSQL afterwards.
 */
export async function restoreToInstant(settings: BackupSettings, target: string): Promise<void> {
  await pgBackRest(settings, ['--delta', '--type=time', `--target=${target}`, '--target-action=promote', 'restore']);
}

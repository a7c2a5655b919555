/**
 * npm run db:backup [-- --type full|diff|incr]
 *
 * A pgBackRest backup of the bank's PostgreSQL cluster (default `incr`; the stanza's first backup is full), then
 * prints what the repository holds. pgBackRest's configuration names the repository and the cluster; the stanza is
 * `PGBACKREST_STANZA` (default `bank`), the file `PGBACKREST_CONFIG` (default /etc/pgbackrest/pgbackrest.conf). See
 * docs/operations.md (Backups and restoring to an instant).
 */
import { parseArgs } from 'node:util';
import { backupCluster, backupSettingsSchema, type BackupType } from './pgBackRest';

const USAGE = 'Usage: npm run db:backup [-- --type full|diff|incr]';

async function main(): Promise<number> {
  let type: BackupType;
  try {
    const { values } = parseArgs({ options: { type: { type: 'string', default: 'incr' } }, strict: true });
    if (values.type !== 'full' && values.type !== 'diff' && values.type !== 'incr') throw new Error(`--type must be full, diff or incr`);
    type = values.type;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const parsed = backupSettingsSchema.safeParse(process.env);
  if (!parsed.success) {
    console.error(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n'));
    return 2;
  }
  try {
    process.stdout.write(await backupCluster(parsed.data, type));
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

process.exitCode = await main();

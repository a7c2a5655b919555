/**
 * npm run eventstore:schema [-- --grant-to ROLE]
 *
 * Installs (or upgrades) the PostgreSQL event store's schema in DATABASE_URL — run it as the role that owns the
 * schema — and with --grant-to gives ROLE what the application needs and nothing more (docs/operations.md, "A
 * least-privilege database role"). Exit status: 0 done, 1 a failure, 2 bad arguments.
 */
import { parseArgs } from 'node:util';
import { createPool, loadConfig, runMain } from '@bank/platform';
import { eventStoreAppRoleGrantsSql } from '../postgres/appRoleGrants';
import { ensureEventStoreSchema } from '../postgres/ensureEventStoreSchema';

const USAGE = 'Usage: npm run eventstore:schema [-- --grant-to ROLE]';

async function main(): Promise<number> {
  let grantTo: string | undefined;
  try {
    const { values } = parseArgs({ options: { 'grant-to': { type: 'string' } }, strict: true });
    grantTo = values['grant-to'];
  } catch {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (grantTo !== undefined && !/^[A-Za-z_][A-Za-z0-9_$]{0,62}$/.test(grantTo)) {
    process.stderr.write(`--grant-to must be a role name (letters, digits, _ and $)\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  if (config.EVENTSTORE_URL) {
    process.stderr.write('EVENTSTORE_URL is set: the event store is EventStoreDB, which has no PostgreSQL schema to install\n');
    return 2;
  }
  const pool = createPool(config.DATABASE_URL, 1);
  try {
    await ensureEventStoreSchema(pool);
    process.stdout.write('The event store schema is installed and current.\n');
    if (grantTo) {
      await pool.query(eventStoreAppRoleGrantsSql(grantTo));
      process.stdout.write(`Granted ${grantTo} what the application needs (no UPDATE, DELETE or TRUNCATE on the events).\n`);
    }
    return 0;
  } finally {
    await pool.end();
  }
}

runMain(main);

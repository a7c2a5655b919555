/**
 * `npm run user:create -- --role admin|auditor --email E --password P [--first-name F] [--last-name L]`:
 * registers a staff user in the event store (the running projector shows it in the read models).
 */
import { parseArgs } from 'node:util';
import { createBankCommands, loadChainKeys } from '@bank/commands';
import { isDomainError } from '@bank/domain';
import { createEventStore } from '@bank/eventstore';
import { createLogger, createPool, ensureDatabase, loadConfig, runMain } from '@bank/platform';
import { createApiMetrics } from '../operations/apiMetrics';
import { createStaffUser, type StaffRole } from '../staff/createStaffUser';

const USAGE = 'Usage: npm run user:create -- --role admin|auditor --email E --password P [--first-name F] [--last-name L]';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      role: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
    strict: true,
  });
  const role = values.role;
  if ((role !== 'admin' && role !== 'auditor') || !values.email || !values.password) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const logger = createLogger('user-create', config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const chainKeys = loadChainKeys(config, process.env, logger);
  await ensureDatabase(config.DATABASE_URL);
  const pool = createPool(config.DATABASE_URL, 2);
  const store = await createEventStore(config, { pool, logger });
  const commands = await createBankCommands({ pool, store, config, logger, chainKeys });
  try {
    const { customer } = await createStaffUser(
      { commands, store, logger, metrics: createApiMetrics() },
      {
        role: role satisfies StaffRole,
        email: values.email,
        password: values.password,
        ...(values['first-name'] ? { firstName: values['first-name'] } : {}),
        ...(values['last-name'] ? { lastName: values['last-name'] } : {}),
      },
    );
    process.stdout.write(`Created ${role} ${customer.email} (id ${customer.userId})\n`);
    return 0;
  } catch (error) {
    if (isDomainError(error) && error.code === 'email_taken') {
      process.stderr.write(`${values.email} is already registered\n`);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
    await pool.end();
  }
}

runMain(main);

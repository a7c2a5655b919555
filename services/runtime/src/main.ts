/**
 * The bank's processes (docs/operations.md, "Processes"):
 *
 *   npm start                     one process with every role (api, projector, worker), or BANK_PROCESSES=cluster
 *   npm run start:cluster         a supervisor and its processes: BANK_API_PROCESSES api processes sharing PORT
 *                                 (default: one per CPU), one projector, one worker
 *   npm run api | worker          one process with that role alone (run as many api and worker processes as the load
 *                                 needs, on any machine, against the same PostgreSQL and Redis)
 *   npm run projector             the projector alone (projector/src/main.ts)
 *
 * The role comes from the first argument (all, api, projector, worker, cluster), else BANK_ROLE, else
 * BANK_PROCESSES=cluster, else all. SIGTERM / SIGINT stop a process gracefully (stop accepting, let requests and
 * transfers in flight finish, then close), within SHUTDOWN_TIMEOUT_MS: past it the process logs the step it was still
 * in and exits with 1; the supervisor passes the signals on and restarts a process that dies.
 */
import cluster from 'node:cluster';
import { createLogger, describeServiceProblems, loadConfig, ServicesUnavailableError, stopWithin } from '@bank/platform';
import { runSupervisor } from './cluster';
import { startBank, type BankRoles } from './startBank';

type Role = 'all' | 'api' | 'projector' | 'worker' | 'cluster';
const ROLES: readonly Role[] = ['all', 'api', 'projector', 'worker', 'cluster'];

function roleOf(): Role {
  // A process forked by the supervisor has its role in BANK_ROLE (its argv is the supervisor's).
  const given = cluster.isWorker ? process.env.BANK_ROLE : (process.argv[2] ?? process.env.BANK_ROLE ?? (process.env.BANK_PROCESSES === 'cluster' ? 'cluster' : 'all'));
  if (given === undefined || !(ROLES as readonly string[]).includes(given)) throw new Error(`Unknown role ${JSON.stringify(given)}: one of ${ROLES.join(', ')}`);
  return given as Role;
}

function rolesOf(role: Exclude<Role, 'cluster'>): BankRoles {
  if (role === 'all') return { api: true, projector: true, worker: true };
  return { api: role === 'api', projector: role === 'projector', worker: role === 'worker' };
}

async function main(): Promise<void> {
  const role = roleOf();
  const config = loadConfig();
  const logger = createLogger(role === 'all' ? 'bank' : `bank-${role}`, config.LOG_LEVEL);
  if (role === 'cluster' && cluster.isPrimary) {
    await runSupervisor({ config, logger });
    return;
  }
  const bank = await startBank(config, { roles: rolesOf(role === 'cluster' ? 'all' : role), logger });
  process.send?.({ bank: 'ready', role });
  // For supervisors and tests that watch the output.
  process.stdout.write(`BANK READY ${role === 'cluster' ? process.env.BANK_ROLE ?? 'all' : role}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, role, deadlineMs: config.SHUTDOWN_TIMEOUT_MS }, 'Stopping: draining requests and transfers in flight');
    stopWithin(() => bank.stop(), config.SHUTDOWN_TIMEOUT_MS, () => bank.stopStep(), ({ deadlineMs, step }) =>
      logger.error({ deadlineMs, step }, `Did not stop within ${deadlineMs} ms (still stopping: ${step ?? 'between steps'}); exiting anyway`),
    )
      .then((outcome) => process.exit(outcome === 'stopped' ? 0 : 1))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'Did not stop cleanly');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ServicesUnavailableError) {
    process.stderr.write(`${describeServiceProblems(error.problems)}\n`);
    process.exit(1);
  }
  createLogger('bank').fatal({ err: error }, error instanceof Error ? error.message : 'Start-up failed');
  process.exit(1);
});

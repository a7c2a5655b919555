import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { checkServices, ServicesUnavailableError, type Config, type Logger } from '@bank/platform';
import { loadBankKeys } from './bankKeys';


/**
 * The supervisor of `npm run start:cluster`: forks the bank's processes and keeps them running —
 *   BANK_API_PROCESSES api processes (default: one per CPU) sharing PORT (node:cluster hands connections round-robin),
 *   one projector and one worker process (each also a standby-safe singleton by its PostgreSQL lock).
 * A process that dies is started again (after a pause that grows while it keeps dying). SIGTERM / SIGINT are passed
 * on: every process drains (stops accepting, lets what is in flight finish) and the supervisor exits when they have.
 * SIGHUP restarts the api processes one at a time, each replaced only once its successor listens: a rolling
 * restart during which the port never stops answering.
 */
type ChildRole = 'api' | 'projector' | 'worker';

interface Child {
  role: ChildRole;
  worker: Worker;
  startedAt: number;
  retiring: boolean;
}

const STOP_TIMEOUT_MS = 30_000;

export async function runSupervisor(options: { readonly config: Config; readonly logger: Logger }): Promise<void> {
  const { config, logger } = options;
  const apiCount = Math.max(1, Number(process.env.BANK_API_PROCESSES ?? availableParallelism()));
  // Keys that a development start creates on first use: created once here, so the processes do not race for them
  // (and a production start without them stops here, before forking anything).
  loadBankKeys(config, process.env, logger, { api: true, projector: true, worker: true });
  const problems = await checkServices({ databaseUrl: config.DATABASE_URL, redisUrl: config.REDIS_URL });
  if (problems.length > 0) throw new ServicesUnavailableError(problems);
  const children = new Set<Child>();
  const crashes = new Map<ChildRole, number>();
  let shuttingDown = false;

  function fork(role: ChildRole): Child {
    const worker = cluster.fork({ BANK_ROLE: role });
    const child: Child = { role, worker, startedAt: Date.now(), retiring: false };
    children.add(child);
    worker.on('exit', (code, signal) => {
      children.delete(child);
      if (shuttingDown || child.retiring) return;
      const quick = Date.now() - child.startedAt < 10_000;
      const count = quick ? (crashes.get(role) ?? 0) + 1 : 0;
      crashes.set(role, count);
      const delay = Math.min(30_000, 500 * 2 ** count);
      logger.error({ role, pid: worker.process.pid, code, signal, restartInMs: delay }, 'A bank process died; starting it again');
      setTimeout(() => {
        if (!shuttingDown) fork(role);
      }, delay).unref();
    });
    return child;
  }

  function stopChild(child: Child): Promise<void> {
    return new Promise((resolve) => {
      if (child.worker.isDead()) return resolve();
      const timer = setTimeout(() => child.worker.process.kill('SIGKILL'), STOP_TIMEOUT_MS);
      child.worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.worker.process.kill('SIGTERM');
    });
  }

  function listening(worker: Worker, timeoutMs = 60_000): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      worker.once('listening', () => {
        clearTimeout(timer);
        resolve(true);
      });
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
  }

  async function rollingRestart(): Promise<void> {
    const old = [...children].filter((child) => child.role === 'api');
    logger.info({ processes: old.length }, 'Rolling restart of the api processes');
    for (const child of old) {
      const next = fork('api');
      if (!(await listening(next.worker))) {
        logger.error('A new api process did not start listening; the rolling restart stops here');
        return;
      }
      child.retiring = true;
      await stopChild(child);
    }
    logger.info('Rolling restart done');
  }

  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal, processes: children.size }, 'Stopping every bank process');
    // The api processes first (they drain requests), then the worker and the projector.
    const apis = [...children].filter((child) => child.role === 'api');
    const others = [...children].filter((child) => child.role !== 'api');
    void Promise.all(apis.map(stopChild))
      .then(() => Promise.all(others.map(stopChild)))
      .then(() => process.exit(0));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGHUP', () => {
    void rollingRestart();
  });

  fork('projector');
  fork('worker');
  for (let i = 0; i < apiCount; i += 1) fork('api');
  logger.info({ api: apiCount, port: config.PORT }, 'Bank supervisor started its processes');
}

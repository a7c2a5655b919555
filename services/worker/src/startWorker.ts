import { parseBooksSettings, createBusinessCalendar, createCob, interestStep, startCobRunner, standingOrdersStep, unbalancedCloses, type BooksSettings, type BusinessCalendar, type Cob, type CobRunnerHandle } from '@bank/books';
import type { CommandHandler } from '@bank/commands';
import type { EventStore } from '@bank/eventstore';
import { startMail, type MailDeps, type RunningMail } from '@bank/mail';
import { connectionState, createLogger, ShutdownSteps, systemClock, watchRedis, type Clock, type Config, type Logger } from '@bank/platform';
import { achFileSettingsOf, createDirectoryTransport, settleAchFiles, type AchCycleDeps, type AchTransport } from '@bank/ach';
import path from 'node:path';
import {
  createTransferSignals,
  faultHookFromSpec,
  startTransferProcess,
  sweepTransfers,
  bullPrefix,
  MAINTENANCE_QUEUE,
  type FaultHook,
  type SweepReport,
  type TransferProcessHandle,
  type TransferSettings,
  type TransferSignals,
} from '@bank/transfers';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { startAchJobs, type AchJobs } from './achJobs';
import { runAuditCheck, type AuditCheckResult, type VerifyReadModels } from './auditCheck';
import { workerMetrics, type WorkerMetrics } from './metrics';

export const SWEEP_SCHEDULER_ID = 'transfer-sweeper';
export const AUDIT_SCHEDULER_ID = 'read-model-audit';

export interface WorkerDeps {
  readonly config: Pick<Config, 'REDIS_URL' | 'REDIS_PREFIX' | 'AUDIT_CHECK_EVERY_MS'> &
    Partial<Pick<Config, 'NODE_ENV' | 'BANK_ROUTING_NUMBER' | 'DATA_DIR'>> &
    TransferSettings &
    Partial<BooksSettings>;
  readonly store: EventStore;
  /** PostgreSQL: the read models (the sweeper's candidates), the transfer process's checkpoint and lock. */
  readonly pool: pg.Pool;
  /** The process's one command handler (shared with the API when they run in one process). */
  readonly commands: CommandHandler;
  readonly signals?: TransferSignals;
  readonly logger?: Logger;
  /** @bank/audit's auditReadModels, bound to the pool and store: the periodic audit. */
  readonly verifyReadModels?: VerifyReadModels;
  /**
   * The ACH cycle (docs/ach.md): where files go (default DATA_DIR/ach/), the cut-offs (calendar mode) and how often
   * the clock and the inbox are looked at.
   */
  readonly ach?: { readonly transport?: AchTransport; readonly cutoffs?: readonly string[]; readonly pollEveryMs?: number };
  /** Defaults to TRANSFER_FAULT (tests). */
  readonly fault?: FaultHook;
  readonly registry?: Registry;
  /** Sweep once at start (default true). */
  readonly sweepOnStart?: boolean;
  /** The business calendar's and the COB's time (default the system clock). */
  readonly clock?: Clock;
  /** The business calendar (default: one of the config's BUSINESS_DATE_MODE on `commands`). */
  readonly calendar?: BusinessCalendar;
  /** E-mail (the mail reactor and sender): settings or transport of its own (tests), or false for none. */
  readonly mail?: false | Pick<MailDeps, 'settings' | 'transport'>;
}

export interface RunningWorker {
  readonly transferProcess: TransferProcessHandle;
  /** The ACH cycle's jobs: cut-offs, transmissions (queue `ach`), the inbox. */
  readonly ach: AchJobs;
  readonly achCycle: AchCycleDeps;
  readonly maintenance: Queue;
  readonly metrics: WorkerMetrics;
  /** The close of business (standing orders, then the day close) for every date due, under the COB lock. */
  readonly cob: Cob;
  /** Its runner: a tick at start and every COB_TICK_MS. */
  readonly cobRunner: CobRunnerHandle;
  readonly calendar: BusinessCalendar;
  /** E-mail: the mail reactor and the sender (undefined with `mail: false`). */
  readonly mail: RunningMail | undefined;
  /** One sweep now (also what the repeatable job runs). */
  sweep(): Promise<SweepReport>;
  /** One audit now. */
  auditCheck(): Promise<AuditCheckResult>;
  /** Stops the transfer process (letting transfers in flight finish), the job workers, the queues and Redis. */
  stop(): Promise<void>;
  /** The step of stop() running now (ShutdownSteps), for a process whose stop passed its deadline. */
  stopStep(): string | undefined;
}

/**
 * The bank's background work in this process: the transfer process (a subscriber to the log, one active instance
 * bank-wide by its lock), the ACH cycle (cut-offs, transmissions as BullMQ jobs, the inbox), and the maintenance
 * jobs — the sweeper and the periodic read-model audit, scheduled as repeatable jobs.
 */
export async function startWorker(deps: WorkerDeps): Promise<RunningWorker> {
  const { config } = deps;
  const logger = deps.logger ?? createLogger('worker');
  const metrics = workerMetrics(deps.registry);
  const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  watchRedis(connection, logger, 'Redis (queues)');
  const fault = deps.fault ?? faultHookFromSpec(config.TRANSFER_FAULT, config.NODE_ENV ?? process.env.NODE_ENV);
  const clock = deps.clock ?? systemClock;
  // The config's books settings, checked again here (a manual business date is refused in production).
  const books = parseBooksSettings({
    NODE_ENV: config.NODE_ENV ?? process.env.NODE_ENV,
    BUSINESS_DATE_MODE: config.BUSINESS_DATE_MODE,
    BUSINESS_DATE_START: config.BUSINESS_DATE_START,
    COB_TICK_MS: config.COB_TICK_MS === undefined ? undefined : String(config.COB_TICK_MS),
    COB_PROJECTOR_WAIT_MS: config.COB_PROJECTOR_WAIT_MS === undefined ? undefined : String(config.COB_PROJECTOR_WAIT_MS),
    INTEREST_PAYMENT_CONCURRENCY: config.INTEREST_PAYMENT_CONCURRENCY === undefined ? undefined : String(config.INTEREST_PAYMENT_CONCURRENCY),
  });
  const calendar =
    deps.calendar ?? createBusinessCalendar({ mode: books.BUSINESS_DATE_MODE, commands: deps.commands, clock, startDate: books.BUSINESS_DATE_START });
  const businessDate = (): Promise<string> => calendar.current();
  const transferProcess = startTransferProcess({
    store: deps.store,
    commands: deps.commands,
    pool: deps.pool,
    ...(deps.signals ? { signals: deps.signals } : {}),
    concurrency: config.TRANSFER_PROCESS_CONCURRENCY,
    logger: logger.child({ component: 'transfer-process' }),
    fault,
    businessDate,
  });

  const achCycle: AchCycleDeps = {
    commands: deps.commands,
    pool: deps.pool,
    settings: achFileSettingsOf(config.BANK_ROUTING_NUMBER ?? '102000021'),
    businessDate,
    now: () => clock.now(),
    logger: logger.child({ component: 'ach' }),
  };
  const ach = startAchJobs({
    cycle: achCycle,
    transport: deps.ach?.transport ?? createDirectoryTransport(path.join(config.DATA_DIR ?? '.data', 'ach')),
    cutoffs: deps.ach?.cutoffs ?? [],
    atCutoffs: calendar.mode === 'calendar',
    pollEveryMs: deps.ach?.pollEveryMs ?? 30_000,
    clock,
    connection,
    prefix: bullPrefix(config.REDIS_PREFIX),
    policy: { attempts: config.WORKER_JOB_ATTEMPTS, backoffMs: config.WORKER_BACKOFF_MS },
    logger: logger.child({ component: 'ach' }),
  });

  // The close of business. Its first step pays the standing orders due (requested like a one-off transfer; the COB does
  // not wait for the payee's credit: the transfer process above makes it, so signals in this process suffice). The
  // second accrues the day's interest (and pays the month's on its last day), waiting for the projector (which may
  // run in another process) to apply the day's accrual.
  const cob = createCob({
    mode: calendar.mode,
    commands: deps.commands,
    store: deps.store,
    pool: deps.pool,
    clock,
    startDate: books.BUSINESS_DATE_START,
    steps: {
      standingOrders: standingOrdersStep({
        commands: deps.commands,
        pool: deps.pool,
        transfer: { signals: deps.signals ?? createTransferSignals(), creditWaitMs: 0, fault },
        clock,
        catchUpDays: config.STANDING_ORDER_CATCH_UP_DAYS,
        logger: logger.child({ component: 'standing-orders' }),
      }),
      achSettlement: async (date) => ({ ...(await settleAchFiles(achCycle, date)) }),
      interest: interestStep({
        commands: deps.commands,
        store: deps.store,
        pool: deps.pool,
        clock,
        projectorWaitMs: books.COB_PROJECTOR_WAIT_MS,
        paymentConcurrency: books.INTEREST_PAYMENT_CONCURRENCY,
        logger: logger.child({ component: 'interest' }),
      }),
    },
    onClosed: (close) => metrics.recordDayClose(close.data.balanced),
    logger: logger.child({ component: 'cob' }),
  });
  const cobRunner = startCobRunner({ cob, tickMs: books.COB_TICK_MS, logger: logger.child({ component: 'cob' }) });

  const sweep = async (): Promise<SweepReport> => {
    try {
      const report = await sweepTransfers({
        pool: deps.pool,
        commands: deps.commands,
        abandonAfterMs: config.TRANSFER_ABANDON_AFTER_MS,
        logger,
        businessDate,
      });
      metrics.sweeperRuns.inc({ result: 'ok' });
      for (const action of report.actions) metrics.sweeperRequeued.inc({ step: action.action.split(' ')[0] ?? 'other' });
      return report;
    } catch (error) {
      metrics.sweeperRuns.inc({ result: 'error' });
      throw error;
    }
  };
  const auditCheck = async (): Promise<AuditCheckResult> => {
    const verifyReadModels = deps.verifyReadModels;
    if (!verifyReadModels) throw new Error('No verifyReadModels given to the worker');
    // The read models against the replay, and the books: a day close that found them out of balance fails the audit.
    const verify = async () => {
      const readModels = await verifyReadModels();
      const unbalanced = await unbalancedCloses(deps.store);
      metrics.booksUnbalancedCloses.set(unbalanced.length);
      return { readModels, unbalancedCloses: unbalanced };
    };
    return runAuditCheck({ verify, logger, metrics });
  };

  const prefix = bullPrefix(config.REDIS_PREFIX);
  const mail =
    deps.mail === false
      ? undefined
      : await startMail({ store: deps.store, commands: deps.commands, pool: deps.pool, logger, registry: metrics.registry, ...deps.mail });
  const maintenance = new Queue(MAINTENANCE_QUEUE, { connection, prefix });
  maintenance.on('error', () => undefined);
  const maintenanceWorker = new Worker(
    MAINTENANCE_QUEUE,
    async (job) => {
      if (job.name === 'sweep') {
        const report = await sweep();
        return { candidates: report.candidates, actions: report.actions.length };
      }
      if (job.name === 'audit-check') return auditCheck();
      throw new Error(`Unknown maintenance job ${job.name}`);
    },
    { connection, prefix, concurrency: 1 },
  );
  const maintenanceState = connectionState(logger, 'Redis (maintenance jobs)');
  maintenanceWorker.on('error', (error) => maintenanceState.failed(error));

  // Queue depth at scrape time (bank_queue_jobs{queue,state}); the transfer process's transfers in flight.
  metrics.observeQueues([ach.queue, maintenance, ...(mail ? [mail.outbox.queue] : [])]);
  metrics.observeTransferProcess(() => transferProcess.status().inFlight);

  // Repeatable jobs. Redis may lose them: they are upserted again on a local timer. The audit replays the whole log
  // (minutes and gigabytes at ten million events): its first run comes one interval after the start, never as the
  // bank boots next to the API (BullMQ runs an `every` scheduler's first job at once). The same start date on every
  // upsert of this process, so the upserts do not push it further away.
  const firstAuditAt = Date.now() + config.AUDIT_CHECK_EVERY_MS;
  const ensureSchedules = async (): Promise<void> => {
    await maintenance.upsertJobScheduler(SWEEP_SCHEDULER_ID, { every: config.TRANSFER_SWEEP_EVERY_MS }, { name: 'sweep', opts: { removeOnComplete: 100, removeOnFail: 100 } });
    if (deps.verifyReadModels) {
      await maintenance.upsertJobScheduler(
        AUDIT_SCHEDULER_ID,
        { every: config.AUDIT_CHECK_EVERY_MS, startDate: firstAuditAt },
        { name: 'audit-check', opts: { removeOnComplete: 100, removeOnFail: 100 } },
      );
    }
  };
  await ensureSchedules().catch((error: unknown) => logger.warn({ err: error }, 'Could not schedule the repeatable jobs; retrying'));
  const scheduleTimer = setInterval(() => {
    ensureSchedules().catch((error: unknown) => logger.warn({ err: error }, 'Could not ensure the repeatable jobs'));
  }, config.TRANSFER_SWEEP_EVERY_MS);
  scheduleTimer.unref();
  if (deps.sweepOnStart ?? true) sweep().catch((error: unknown) => logger.error({ err: error }, 'Start-up sweep failed'));
  logger.info({ prefix, businessDateMode: calendar.mode }, 'Worker started: transfer process, close of business, ACH and maintenance jobs');

  let stopped: Promise<void> | undefined;
  const steps = new ShutdownSteps();
  return {
    transferProcess,
    ach,
    achCycle,
    maintenance,
    metrics,
    cob,
    cobRunner,
    calendar,
    mail,
    sweep,
    auditCheck,
    stop() {
      stopped ??= (async () => {
        clearInterval(scheduleTimer);
        await steps.run('close of business', () => cobRunner.stop());
        await steps.run('transfer process', () => transferProcess.stop());
        await steps.run('mail', () => mail?.stop());
        await steps.run('ach', () => ach.stop());
        await steps.run('maintenance jobs', () => Promise.allSettled([maintenanceWorker.close()]));
        await steps.run('maintenance queue', () => Promise.allSettled([maintenance.close()]));
        await steps.run('redis', () => connection.quit().catch(() => connection.disconnect()));
      })();
      return stopped;
    },
    stopStep: () => steps.current(),
  };
}

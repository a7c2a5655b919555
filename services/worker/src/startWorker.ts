import { DelayedError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { EventStore } from '@bank/eventstore';
import { createLogger, type Logger } from '@bank/platform';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { runAuditCheck, type AuditCheckResult, type VerifyReadModels } from './auditCheck';
import { noFaults, type FaultHook } from './faults';
import { workerMetrics, type WorkerMetrics } from './metrics';
import {
  bullPrefix,
  createTransferQueues,
  ensureTransferJob,
  MAINTENANCE_QUEUE,
  SETTLEMENT_QUEUE,
  TRANSFERS_QUEUE,
  type TransferJobData,
  type TransferQueues,
} from './queues';
import { createSimulatedSettlement, type SettlementNetwork } from './transfers/settlement';
import { sweepTransfers, type SweepReport } from './transfers/sweeper';
import { advanceTransfer, StepNotReadyError, type TransferProcessDeps } from './transfers/transferProcess';
import type { WorkerSettings } from './workerConfig';

export const SWEEP_SCHEDULER_ID = 'transfer-sweeper';
export const AUDIT_SCHEDULER_ID = 'read-model-audit';

export interface WorkerDeps {
  readonly config: Pick<WorkerSettings, keyof WorkerSettings> & {
    readonly REDIS_URL: string;
    readonly REDIS_PREFIX: string;
    readonly SETTLEMENT_DELAY_MS: number;
    readonly AUDIT_CHECK_EVERY_MS: number;
  };
  readonly store: EventStore;
  /** The read models (rm.transfers for the sweeper). */
  readonly pool: pg.Pool;
  readonly logger?: Logger;
  /** The projector's verifyReadModels, bound to the pool and store; without it the audit job is not scheduled. */
  readonly verifyReadModels?: VerifyReadModels;
  /** Defaults to the simulated network of SETTLEMENT_REJECT_ACCOUNTS. */
  readonly settlement?: SettlementNetwork;
  /** Defaults to WORKER_FAULT (tests). */
  readonly fault?: FaultHook;
  /** Where the worker's metrics go (default: a registry of its own, RunningWorker.metrics.registry). */
  readonly registry?: Registry;
  /** Sweep once at start (default true). */
  readonly sweepOnStart?: boolean;
}

export interface RunningWorker {
  readonly queues: TransferQueues;
  readonly metrics: WorkerMetrics;
  /** One sweep now (also what the repeatable job runs). */
  sweep(): Promise<SweepReport>;
  /** One audit now. */
  auditCheck(): Promise<AuditCheckResult>;
  /** Closes the workers (waiting for running jobs), the queues and the Redis connection. */
  stop(): Promise<void>;
}

/**
 * Starts the BullMQ workers of the transfer process, the sweeper and the periodic audit, in this process.
 * Used by the one-process `npm start` and by `npm run worker` (main.ts). Several can run at once (other processes,
 * other machines): every step is idempotent and BullMQ hands each job to one worker at a time.
 */
export async function startWorker(deps: WorkerDeps): Promise<RunningWorker> {
  const { config } = deps;
  const logger = deps.logger ?? createLogger('worker');
  const metrics = workerMetrics(deps.registry);
  const connection = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  connection.on('error', (error) => logger.warn({ err: error }, 'Redis connection error (retrying)'));
  const prefix = bullPrefix(config.REDIS_PREFIX);
  const queues = createTransferQueues({
    connection,
    prefix: config.REDIS_PREFIX,
    policy: { attempts: config.WORKER_JOB_ATTEMPTS, backoffMs: config.WORKER_BACKOFF_MS },
  });

  const processDeps: TransferProcessDeps = {
    store: deps.store,
    logger,
    settlement: deps.settlement ?? createSimulatedSettlement(config.SETTLEMENT_REJECT_ACCOUNTS),
    abandonAfterMs: config.TRANSFER_ABANDON_AFTER_MS,
    fault: deps.fault ?? noFaults,
  };

  async function processTransferJob(job: Job<TransferJobData>, token?: string): Promise<{ ran: string[]; next: string }> {
    const { transferId } = job.data;
    try {
      const result = await advanceTransfer(processDeps, transferId, { causationId: job.id, settlementDelayMs: config.SETTLEMENT_DELAY_MS });
      for (const step of result.ran) metrics.transferSteps.inc({ step });
      if (result.ran.length > 0) logger.info({ transferId, ran: result.ran, next: result.next, job: job.id }, 'Transfer advanced');
      if (result.next === 'settle') {
        if (job.name === 'settle' && result.settleAt && token) {
          // Run too early (queued by hand or by a sweeper with a different clock): wait in place.
          await job.moveToDelayed(result.settleAt.getTime(), token);
          throw new DelayedError();
        }
        await ensureTransferJob(queues, 'settle', transferId, result.settleAt ? { runAt: result.settleAt } : {});
      }
      return { ran: result.ran, next: result.next };
    } catch (error) {
      if (error instanceof StepNotReadyError && token) {
        await job.moveToDelayed(error.retryAt.getTime(), token);
        throw new DelayedError();
      }
      throw error;
    }
  }

  const workerOptions = {
    connection,
    prefix,
    concurrency: config.WORKER_CONCURRENCY,
    lockDuration: config.WORKER_LOCK_DURATION_MS,
    stalledInterval: config.WORKER_STALLED_INTERVAL_MS,
    // A job of a dead worker is taken over this many times before it is failed (and then retried by the sweeper).
    maxStalledCount: 10,
  };
  const transferWorker = new Worker<TransferJobData>(TRANSFERS_QUEUE, processTransferJob, workerOptions);
  const settlementWorker = new Worker<TransferJobData>(SETTLEMENT_QUEUE, processTransferJob, workerOptions);

  const sweep = async (): Promise<SweepReport> => {
    try {
      const report = await sweepTransfers({
        pool: deps.pool,
        store: deps.store,
        queues,
        logger,
        metrics,
        settlementDelayMs: config.SETTLEMENT_DELAY_MS,
      });
      metrics.sweeperRuns.inc({ result: 'ok' });
      return report;
    } catch (error) {
      metrics.sweeperRuns.inc({ result: 'error' });
      throw error;
    }
  };
  const auditCheck = async (): Promise<AuditCheckResult> => {
    if (!deps.verifyReadModels) throw new Error('No verifyReadModels given to the worker');
    return runAuditCheck({ verify: deps.verifyReadModels, logger, metrics });
  };

  const maintenanceWorker = new Worker(
    MAINTENANCE_QUEUE,
    async (job) => {
      if (job.name === 'sweep') {
        const report = await sweep();
        return { candidates: report.candidates, requeued: report.requeued.length };
      }
      if (job.name === 'audit-check') return auditCheck();
      throw new Error(`Unknown maintenance job ${job.name}`);
    },
    { ...workerOptions, concurrency: 1 },
  );

  for (const [name, worker] of [
    [TRANSFERS_QUEUE, transferWorker],
    [SETTLEMENT_QUEUE, settlementWorker],
    [MAINTENANCE_QUEUE, maintenanceWorker],
  ] as const) {
    worker.on('failed', (job, error) => {
      metrics.transferJobFailures.inc({ queue: name });
      const final = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
      logger[final ? 'error' : 'warn']({ err: error, job: job?.id, attempts: job?.attemptsMade, queue: name }, final ? 'Job failed for good (kept; the sweeper retries it)' : 'Job attempt failed; retrying with backoff');
    });
    worker.on('error', (error) => logger.warn({ err: error, queue: name }, 'Worker error'));
  }

  // Repeatable jobs. Redis may lose them (that is what the sweeper is for): they are upserted again on a local timer.
  const ensureSchedules = async (): Promise<void> => {
    await queues.maintenance.upsertJobScheduler(SWEEP_SCHEDULER_ID, { every: config.TRANSFER_SWEEP_EVERY_MS }, { name: 'sweep', opts: { removeOnComplete: 100, removeOnFail: 100 } });
    if (deps.verifyReadModels) {
      await queues.maintenance.upsertJobScheduler(
        AUDIT_SCHEDULER_ID,
        { every: config.AUDIT_CHECK_EVERY_MS },
        { name: 'audit-check', opts: { removeOnComplete: 100, removeOnFail: 100 } },
      );
    }
  };
  await ensureSchedules();
  const scheduleTimer = setInterval(() => {
    ensureSchedules().catch((error: unknown) => logger.warn({ err: error }, 'Could not ensure the repeatable jobs'));
  }, config.TRANSFER_SWEEP_EVERY_MS);
  scheduleTimer.unref();

  if (deps.sweepOnStart ?? true) {
    sweep().catch((error: unknown) => logger.error({ err: error }, 'Start-up sweep failed'));
  }
  logger.info({ prefix, queues: [TRANSFERS_QUEUE, SETTLEMENT_QUEUE, MAINTENANCE_QUEUE] }, 'Worker started');

  let stopped: Promise<void> | undefined;
  return {
    queues,
    metrics,
    sweep,
    auditCheck,
    stop() {
      stopped ??= (async () => {
        clearInterval(scheduleTimer);
        await Promise.allSettled([transferWorker.close(), settlementWorker.close(), maintenanceWorker.close()]);
        await queues.close();
        await connection.quit().catch(() => connection.disconnect());
      })();
      return stopped;
    },
  };
}

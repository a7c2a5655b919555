import type { CommandHandler } from '@bank/commands';
import { nextTransferStep } from '@bank/domain';
import { connectionState, type Logger } from '@bank/platform';
import { DelayedError, Queue, Worker, type ConnectionOptions, type Job, type JobsOptions } from 'bullmq';
import type { FaultHook } from './faults';
import { bullPrefix, SETTLEMENT_QUEUE } from './queueNames';
import type { SettlementNetwork } from './settlementNetwork';
import { advanceTransfer, readTransfer, type BusinessDateSource } from './transferSteps';
import type { TransferSignals } from './transferSignals';

/**
 * External transfers wait SETTLEMENT_DELAY_MS after they were sent, then the settlement network answers: what a
 * queue is for (a delay, retries with backoff, a dashboard). One BullMQ job per transfer, id `settle-<transferId>`,
 * so scheduling it twice queues it once; every key under REDIS_PREFIX. Redis losing its data loses only the
 * schedule: the sweeper schedules again every transfer the log shows as sent (sweeper.ts).
 */
export interface SettlementJobData {
  readonly transferId: string;
}

export interface JobPolicy {
  /** Attempts before a job is kept as failed (the sweeper retries it later). */
  readonly attempts: number;
  /** First backoff delay (exponential). */
  readonly backoffMs: number;
}

export function settlementJobId(transferId: string): string {
  return `settle-${transferId}`;
}

function jobOptions(policy: JobPolicy): JobsOptions {
  return {
    attempts: policy.attempts,
    backoff: { type: 'exponential', delay: policy.backoffMs },
    removeOnComplete: { age: 7 * 24 * 3600, count: 50_000 },
    removeOnFail: false,
  };
}

export type ScheduleResult = 'queued' | 'exists' | 'retried' | 'replaced';

export interface SettlementQueue {
  readonly queue: Queue<SettlementJobData>;
  /**
   * Queues the settlement of a transfer at `runAt`. With `stillDue` (the log says it is not settled): a failed job is
   * retried and a completed one (run before the step was due) replaced.
   */
  schedule(transferId: string, runAt: Date, options?: { readonly stillDue?: boolean }): Promise<ScheduleResult>;
  close(): Promise<void>;
}

export function createSettlementQueue(options: { readonly connection: ConnectionOptions; readonly redisPrefix: string; readonly policy: JobPolicy }): SettlementQueue {
  const queue = new Queue<SettlementJobData>(SETTLEMENT_QUEUE, { connection: options.connection, prefix: bullPrefix(options.redisPrefix) });
  queue.on('error', () => {
    // Connection errors are retried by ioredis; callers see failures on their own calls.
  });
  return {
    queue,
    async schedule(transferId, runAt, scheduleOptions = {}) {
      const jobId = settlementJobId(transferId);
      const delay = Math.max(0, runAt.getTime() - Date.now());
      if (scheduleOptions.stillDue) {
        const existing: Job<SettlementJobData> | undefined = await queue.getJob(jobId);
        if (existing) {
          const state = await existing.getState();
          if (state === 'failed') {
            await existing.retry('failed');
            return 'retried';
          }
          if (state !== 'completed') return 'exists';
          await existing.remove().catch(() => undefined);
          await queue.add('settle', { transferId }, { ...jobOptions(options.policy), jobId, delay });
          return 'replaced';
        }
      }
      await queue.add('settle', { transferId }, { ...jobOptions(options.policy), jobId, delay });
      return 'queued';
    },
    close: () => queue.close(),
  };
}

export interface SettlementWorkerDeps {
  readonly connection: ConnectionOptions;
  readonly redisPrefix: string;
  readonly commands: CommandHandler;
  readonly network: SettlementNetwork;
  readonly settlementDelayMs: number;
  readonly signals?: TransferSignals;
  readonly fault?: FaultHook;
  readonly logger?: Logger;
  readonly concurrency: number;
  readonly lockDurationMs: number;
  readonly stalledIntervalMs: number;
  readonly now?: () => Date;
  /** The business date of the settlement's money commands (the calendar's). */
  readonly businessDate?: BusinessDateSource;
}

/** Runs the settlement jobs: asks the network, then settles, or fails and refunds, through the transfer's steps. */
export function startSettlementWorker(deps: SettlementWorkerDeps): Worker<SettlementJobData> {
  const worker = new Worker<SettlementJobData>(
    SETTLEMENT_QUEUE,
    async (job, token) => {
      const { transferId } = job.data;
      const state = await readTransfer(deps.commands, transferId);
      if (state.phase === 'none') throw new Error(`Transfer ${transferId} has no record yet`);
      const { request } = state;
      const stepDeps = { commands: deps.commands, ...(deps.signals ? { signals: deps.signals } : {}), ...(deps.fault ? { fault: deps.fault } : {}), ...(deps.now ? { now: deps.now } : {}), ...(deps.businessDate ? { businessDate: deps.businessDate } : {}) };
      const from = nextTransferStep(state, request);
      if (from === 'settle') {
        const dueAt = new Date(state.sentAt ?? request.requestedAt).getTime() + deps.settlementDelayMs;
        if (dueAt > (deps.now?.() ?? new Date()).getTime() && token) {
          // Run too early (scheduled by hand or by a clock ahead): wait in place.
          await job.moveToDelayed(dueAt, token);
          throw new DelayedError();
        }
        const settlement = await deps.network.settle(request);
        const result = await advanceTransfer(stepDeps, request, { from, settlement, causationId: job.id });
        deps.logger?.info({ transferId, ran: result.ran, settled: settlement.ok }, 'External transfer settled');
        return { ran: result.ran };
      }
      const result = await advanceTransfer(stepDeps, request, { from, causationId: job.id });
      return { ran: result.ran };
    },
    {
      connection: deps.connection,
      prefix: bullPrefix(deps.redisPrefix),
      concurrency: deps.concurrency,
      lockDuration: deps.lockDurationMs,
      stalledInterval: deps.stalledIntervalMs,
      // A job of a dead worker is taken over this many times before it is failed (and then retried by the sweeper).
      maxStalledCount: 10,
    },
  );
  const state = deps.logger ? connectionState(deps.logger, 'Redis (settlement jobs)') : undefined;
  worker.on('error', (error) => state?.failed(error));
  worker.on('failed', (job, error) => {
    const final = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
    deps.logger?.[final ? 'error' : 'warn']({ err: error, job: job?.id, attempts: job?.attemptsMade }, final ? 'Settlement job failed for good (kept; the sweeper retries it)' : 'Settlement attempt failed; retrying with backoff');
  });
  return worker;
}

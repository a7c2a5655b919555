import { Queue, type ConnectionOptions, type Job, type JobsOptions } from 'bullmq';
import type { ProcessStep } from './transfers/transferProcess';

/**
 * The queues (BullMQ; every key under REDIS_PREFIX through BullMQ's `prefix` option):
 *   transfers    one job per transfer step that can run at once: debit-<id>, credit-<id>, send-<id>, refund-<id>
 *   settlement   settle-<id>, delayed until SETTLEMENT_DELAY_MS after the transfer was sent
 *   maintenance  the sweeper (every TRANSFER_SWEEP_EVERY_MS) and the audit check (every AUDIT_CHECK_EVERY_MS)
 *
 * Job ids are deterministic (`<step>-<transferId>`), so a step is never queued twice: adding a job whose id exists
 * (waiting, delayed, active, completed or failed) does nothing. BullMQ refuses ':' in custom ids, hence the dash.
 */
export const TRANSFERS_QUEUE = 'transfers';
export const SETTLEMENT_QUEUE = 'settlement';
export const MAINTENANCE_QUEUE = 'maintenance';
export const queueNames = [TRANSFERS_QUEUE, SETTLEMENT_QUEUE, MAINTENANCE_QUEUE] as const;
export type QueueName = (typeof queueNames)[number];

export type TransferJobStep = Exclude<ProcessStep, 'done'>;

export interface TransferJobData {
  readonly transferId: string;
}

export function transferJobId(step: TransferJobStep, transferId: string): string {
  return `${step}-${transferId}`;
}

export function queueOfStep(step: TransferJobStep): QueueName {
  return step === 'settle' ? SETTLEMENT_QUEUE : TRANSFERS_QUEUE;
}

export interface JobPolicy {
  /** Attempts before a job is kept as failed. */
  readonly attempts: number;
  /** First backoff delay (exponential). */
  readonly backoffMs: number;
}

export const defaultJobPolicy: JobPolicy = { attempts: 10, backoffMs: 1000 };

/** Options of every transfer job: retries with exponential backoff; completed jobs kept a week, failed ones kept. */
export function transferJobOptions(policy: JobPolicy): JobsOptions {
  return {
    attempts: policy.attempts,
    backoff: { type: 'exponential', delay: policy.backoffMs },
    removeOnComplete: { age: 7 * 24 * 3600, count: 50_000 },
    removeOnFail: false,
  };
}

/** The queues one process adds to. */
export interface TransferQueues {
  readonly transfers: Queue<TransferJobData>;
  readonly settlement: Queue<TransferJobData>;
  readonly maintenance: Queue;
  readonly policy: JobPolicy;
  close(): Promise<void>;
}

export interface QueueConnection {
  /** ioredis options or an ioredis instance (BullMQ needs maxRetriesPerRequest: null on workers). */
  readonly connection: ConnectionOptions;
  /** REDIS_PREFIX, e.g. 'bank:' (see bullPrefix). */
  readonly prefix: string;
}

/** BullMQ's prefix is joined to the queue name with ':'; REDIS_PREFIX ('bank:') ends with one already. */
export function bullPrefix(redisPrefix: string): string {
  return redisPrefix.endsWith(':') ? redisPrefix.slice(0, -1) : redisPrefix;
}

export function createTransferQueues(options: QueueConnection & { readonly policy?: JobPolicy }): TransferQueues {
  const common = { connection: options.connection, prefix: bullPrefix(options.prefix) };
  const transfers = new Queue<TransferJobData>(TRANSFERS_QUEUE, common);
  const settlement = new Queue<TransferJobData>(SETTLEMENT_QUEUE, common);
  const maintenance = new Queue(MAINTENANCE_QUEUE, common);
  for (const queue of [transfers, settlement, maintenance]) {
    queue.on('error', () => {
      // Connection errors are retried by ioredis; callers see failures on their own calls.
    });
  }
  return {
    transfers,
    settlement,
    maintenance,
    policy: options.policy ?? defaultJobPolicy,
    async close() {
      await Promise.allSettled([transfers.close(), settlement.close(), maintenance.close()]);
    },
  };
}

/** queued: added, or a job of that id already existed (BullMQ does not say which); the others: see stepStillDue. */
export type EnsureJobResult = 'queued' | 'exists' | 'retried' | 'replaced';

export interface EnsureJobOptions {
  /** Run no earlier than this (settlement). */
  readonly runAt?: Date;
  /**
   * The sweeper knows from the event log that the step is still to be done: a completed job of that id is stale
   * (it ran when the step was not yet due) and is replaced, a failed one is retried.
   */
  readonly stepStillDue?: boolean;
}

/**
 * Queues the job of one step of one transfer unless a job with its id exists. Returns what it did.
 */
export async function ensureTransferJob(queues: TransferQueues, step: TransferJobStep, transferId: string, options: EnsureJobOptions = {}): Promise<EnsureJobResult> {
  const queue = step === 'settle' ? queues.settlement : queues.transfers;
  const jobId = transferJobId(step, transferId);
  const delay = options.runAt ? Math.max(0, options.runAt.getTime() - Date.now()) : 0;
  if (options.stepStillDue) {
    const existing: Job<TransferJobData> | undefined = await queue.getJob(jobId);
    if (existing) {
      const state = await existing.getState();
      if (state === 'failed') {
        await existing.retry('failed');
        return 'retried';
      }
      if (state === 'completed') {
        await existing.remove().catch(() => undefined);
        await queue.add(step, { transferId }, { ...transferJobOptions(queues.policy), jobId, delay });
        return 'replaced';
      }
      return 'exists';
    }
  }
  await queue.add(step, { transferId }, { ...transferJobOptions(queues.policy), jobId, delay });
  return 'queued';
}

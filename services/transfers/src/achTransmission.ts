import type { Queue } from 'bullmq';

/** Attempts of an ACH file's transmission job and the first backoff delay (WORKER_JOB_ATTEMPTS, WORKER_BACKOFF_MS). */
export interface AchJobPolicy {
  readonly attempts: number;
  readonly backoffMs: number;
}

/**
 * Queues an ACH file's transmission on the `ach` queue (ACH_QUEUE) as the job `transmit-<fileId>`: once per file
 * (a second call while the job waits, runs or has completed adds nothing), retried with exponential backoff; a job
 * that failed for good is retried again. The worker that takes it uploads every file not yet transmitted
 * (idempotent), so queuing it from any process — the worker at a cut-off or tick, the API after
 * `POST /admin/ach/files` — is safe.
 */
export async function queueAchTransmission(queue: Queue, fileId: string, policy: AchJobPolicy): Promise<void> {
  const jobId = `transmit-${fileId}`;
  const existing = await queue.getJob(jobId);
  if (existing && (await existing.getState()) === 'failed') {
    await existing.retry('failed');
    return;
  }
  await queue.add('transmit', { fileId }, { jobId, attempts: policy.attempts, backoff: { type: 'exponential', delay: policy.backoffMs }, removeOnComplete: 1000, removeOnFail: false });
}

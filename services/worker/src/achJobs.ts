import {
  readAchCycle,
  buildAchFile,
  cutoffsPassed,
  importIncomingFile,
  importReturnsFile,
  isReturnsFile,
  transmitAchFiles,
  type AchCycleDeps,
  type AchTransport,
  type BuiltAchFile,
} from '@bank/ach';
import { connectionState, type Clock, type Logger } from '@bank/platform';
import { ACH_QUEUE, queueAchTransmission, type AchJobPolicy } from '@bank/transfers';
import { Queue, Worker, type ConnectionOptions } from 'bullmq';

/**
 * The worker's part of the ACH cycle (docs/ach.md):
 *   - at each cut-off (calendar mode; ACH_CUTOFFS, wall clock UTC) a file of every waiting entry is built;
 *   - every file built is transmitted by a BullMQ job `transmit-<fileId>` (queue `ach`), retried with exponential
 *     backoff; the upload is idempotent, so a retry after a crash is safe;
 *   - a file built by an API process (POST /admin/ach/files) gets its job from that process as it answers;
 *   - every ACH_POLL_EVERY_MS: a file not yet transmitted (whose API process could not queue its job, or left by a
 *     process that died) gets its transmission job, and the inbox (SFTP, else DATA_DIR/ach/inbox/) is read: each
 *     returns or incoming file is imported (entries recognised by trace number, so a file seen again changes nothing).
 */
export interface AchJobsDeps {
  readonly cycle: AchCycleDeps;
  readonly transport: AchTransport;
  readonly cutoffs: readonly string[];
  /** Only calendar mode builds at cut-offs (manual mode: POST /admin/ach/files). */
  readonly atCutoffs: boolean;
  readonly pollEveryMs: number;
  readonly clock: Clock;
  readonly connection: ConnectionOptions;
  readonly prefix: string;
  readonly policy: AchJobPolicy;
  readonly logger: Logger;
}

export interface AchJobs {
  readonly queue: Queue;
  /** Builds a file now and queues its transmission. */
  buildNow(): Promise<BuiltAchFile | undefined>;
  /** One look at the clock and the inbox (the timer's tick). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export function startAchJobs(deps: AchJobsDeps): AchJobs {
  const { logger } = deps;
  const queue = new Queue(ACH_QUEUE, { connection: deps.connection, prefix: deps.prefix });
  queue.on('error', () => undefined);
  const worker = new Worker(
    ACH_QUEUE,
    async (job) => {
      if (job.name === 'transmit') {
        const sent = await transmitAchFiles({ ...deps.cycle, transport: deps.transport });
        return { transmitted: sent.map((file) => ({ fileId: file.fileId, location: file.receipt.location, sha256: file.receipt.sha256 })) };
      }
      throw new Error(`Unknown ACH job ${job.name}`);
    },
    { connection: deps.connection, prefix: deps.prefix, concurrency: 1 },
  );
  const state = connectionState(logger, 'Redis (ACH jobs)');
  worker.on('error', (error) => state.failed(error));
  worker.on('failed', (job, error) => {
    const final = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
    logger[final ? 'error' : 'warn']({ err: error, job: job?.id, attempts: job?.attemptsMade }, final ? 'ACH transmission failed for good (kept; the next file or tick retries it)' : 'ACH transmission failed; retrying with backoff');
  });

  const queueTransmission = (fileId: string) => queueAchTransmission(queue, fileId, deps.policy);

  async function buildNow(): Promise<BuiltAchFile | undefined> {
    const file = await buildAchFile(deps.cycle);
    if (file) await queueTransmission(file.fileId);
    return file;
  }

  const seenInbox = new Set<string>();
  async function readInbox(): Promise<void> {
    for (const item of await deps.transport.listInbox()) {
      if (seenInbox.has(item.name)) continue;
      const text = await deps.transport.download(item.name);
      try {
        const result = isReturnsFile(text) ? await importReturnsFile(deps.cycle, text) : await importIncomingFile(deps.cycle, text);
        logger.info({ file: item.name, result }, 'ACH inbox file imported');
      } catch (error) {
        logger.error({ err: error, file: item.name }, 'ACH inbox file refused');
      }
      seenInbox.add(item.name);
    }
  }

  let lastLook = deps.clock.now();
  async function tick(): Promise<void> {
    const now = deps.clock.now();
    const passed = deps.atCutoffs ? cutoffsPassed(deps.cutoffs, lastLook, now) : [];
    lastLook = now;
    if (passed.length > 0) {
      const file = await buildNow();
      logger.info({ cutoffs: passed, fileId: file?.fileId, entries: file?.entries.length ?? 0 }, 'ACH cut-off');
    }
    // Files built elsewhere (POST /admin/ach/files in an API process) or left by a process that died: transmitted now.
    const untransmitted = await readAchCycle(deps.cycle, (state) => [...state.files].filter(([, file]) => !file.transmitted).map(([fileId]) => fileId));
    for (const fileId of untransmitted) await queueTransmission(fileId);
    await readInbox();
  }

  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(tick).catch((error: unknown) => logger.warn({ err: error }, 'ACH tick failed; trying again at the next'));
  }, deps.pollEveryMs);
  timer.unref();

  return {
    queue,
    buildNow,
    tick,
    async stop() {
      clearInterval(timer);
      await running.catch(() => undefined);
      await Promise.allSettled([worker.close()]);
      await queue.close().catch(() => undefined);
    },
  };
}

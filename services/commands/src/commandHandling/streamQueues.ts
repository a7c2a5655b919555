import type { AnyDecider, CommandJob, ReadJob, StreamJob } from './commandJobs';

/** One stream's queue: its jobs run one after another; consecutive commands run together as a batch. */
export interface StreamQueue {
  readonly decider: AnyDecider;
  readonly streamId: string;
  readonly jobs: StreamJob[];
  running: boolean;
}

/**
 * ONE WRITER per stream in this process: jobs for a stream queue behind each other, and the commands waiting while a
 * batch is in flight (at most `maxBatch`) are handed over together as the next batch.
 */
export function createStreamQueues(options: {
  readonly maxBatch: number;
  readonly runBatch: (queue: StreamQueue, batch: readonly CommandJob[]) => Promise<void>;
  readonly runRead: (queue: StreamQueue, job: ReadJob) => Promise<void>;
}): { enqueue(decider: AnyDecider, streamId: string, job: StreamJob): void } {
  const queues = new Map<string, StreamQueue>();

  async function drain(key: string, queue: StreamQueue): Promise<void> {
    queue.running = true;
    try {
      while (queue.jobs.length > 0) {
        const first = queue.jobs[0]!;
        if (first.kind === 'read') {
          queue.jobs.shift();
          await options.runRead(queue, first);
          continue;
        }
        const batch: CommandJob[] = [];
        while (batch.length < options.maxBatch && queue.jobs[0]?.kind === 'command') batch.push(queue.jobs.shift() as CommandJob);
        await options.runBatch(queue, batch);
      }
    } finally {
      queue.running = false;
      queues.delete(key);
    }
  }

  return {
    enqueue(decider, streamId, job) {
      const key = `${decider.name}\u0000${streamId}`;
      let queue = queues.get(key);
      if (!queue) {
        queue = { decider, streamId, jobs: [], running: false };
        queues.set(key, queue);
      }
      queue.jobs.push(job);
      if (!queue.running) void drain(key, queue);
    },
  };
}

import type { CommandMetrics, CommandOutcome } from '../commandMetrics';
import type { CommandStats } from './commandHandlerTypes';
import type { AnyDecider, CommandJob } from './commandJobs';

/** The handler's counters (CommandStats) and its metrics, updated together. */
export interface HandlerStats {
  readonly counts: { -readonly [K in keyof CommandStats]: CommandStats[K] };
  readonly metrics: CommandMetrics;
  /** A command's outcome: counted, and its time from being queued reported. */
  finish(job: CommandJob, decider: AnyDecider, outcome: CommandOutcome): void;
  snapshot(): CommandStats;
}

export function createHandlerStats(metrics: CommandMetrics): HandlerStats {
  const counts = { commands: 0, eventsRead: 0, conflicts: 0, batches: 0, snapshotsSaved: 0, snapshotsLoaded: 0 };
  return {
    counts,
    metrics,
    finish(job, decider, outcome) {
      counts.commands += 1;
      metrics.command(decider.name, job.commandType, outcome, (performance.now() - job.started) / 1000);
    },
    snapshot: () => ({ ...counts }),
  };
}

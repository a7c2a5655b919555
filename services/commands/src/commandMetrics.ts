import { Counter, Histogram, Registry } from 'prom-client';

export type CommandOutcome = 'appended' | 'unchanged' | 'refused' | 'conflict' | 'error';

/** What the command handler reports; the Prometheus implementation is createCommandMetrics. */
export interface CommandMetrics {
  command(aggregate: string, command: string, outcome: CommandOutcome, seconds: number): void;
  /** An append refused by optimistic concurrency (another writer moved the stream): the batch is decided again. */
  conflict(aggregate: string): void;
  /** Events read from the store to bring a state up to date (tail reads, cold loads). */
  eventsRead(aggregate: string, count: number): void;
  /** Commands decided together against one stream state. */
  batch(aggregate: string, size: number): void;
  snapshot(aggregate: string, outcome: 'saved' | 'loaded' | 'failed'): void;
}

export const noCommandMetrics: CommandMetrics = {
  command: () => undefined,
  conflict: () => undefined,
  eventsRead: () => undefined,
  batch: () => undefined,
  snapshot: () => undefined,
};

export function createCommandMetrics(registry: Registry = new Registry()): CommandMetrics & { readonly registry: Registry } {
  const commands = new Counter({
    name: 'bank_commands_total',
    help: 'Commands handled, by aggregate, command and outcome',
    labelNames: ['aggregate', 'command', 'outcome'],
    registers: [registry],
  });
  const seconds = new Histogram({
    name: 'bank_command_seconds',
    help: 'Time from a command being queued to its outcome',
    labelNames: ['aggregate', 'outcome'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const conflicts = new Counter({ name: 'bank_command_conflicts_total', help: 'Appends refused by optimistic concurrency', labelNames: ['aggregate'], registers: [registry] });
  const eventsRead = new Counter({ name: 'bank_command_events_read_total', help: 'Events read to bring command states up to date', labelNames: ['aggregate'], registers: [registry] });
  const batchSize = new Histogram({
    name: 'bank_command_batch_size',
    help: 'Commands decided together against one stream state',
    labelNames: ['aggregate'],
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [registry],
  });
  const snapshots = new Counter({ name: 'bank_command_snapshots_total', help: 'Snapshots saved, loaded or failed', labelNames: ['aggregate', 'outcome'], registers: [registry] });
  return {
    registry,
    command(aggregate, command, outcome, s) {
      commands.inc({ aggregate, command, outcome });
      seconds.observe({ aggregate, outcome }, s);
    },
    conflict: (aggregate) => conflicts.inc({ aggregate }),
    eventsRead: (aggregate, count) => eventsRead.inc({ aggregate }, count),
    batch: (aggregate, size) => batchSize.observe({ aggregate }, size),
    snapshot: (aggregate, outcome) => snapshots.inc({ aggregate, outcome }),
  };
}

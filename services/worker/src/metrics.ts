import { Counter, Gauge, Registry } from 'prom-client';

/**
 * The worker's Prometheus metrics, on a registry of their own (RunningWorker.metrics.registry: the one-process
 * `npm start` hands it to the API as one of AppDeps.extraMetricRegistries, so GET /api/metrics shows them; the
 * stand-alone worker serves it on WORKER_METRICS_PORT). Created once per registry.
 */
export interface WorkerMetrics {
  readonly registry: Registry;
  readonly transferSteps: Counter<'step'>;
  readonly transferJobFailures: Counter<'queue'>;
  readonly sweeperRequeued: Counter<'step'>;
  readonly sweeperRuns: Counter<'result'>;
  readonly auditRuns: Counter<'result'>;
  readonly auditOk: Gauge;
  readonly auditMismatches: Gauge;
  readonly auditLastRun: Gauge;
  /** Day closes appended by this worker's COB, by whether the books balanced. */
  readonly dayCloses: Counter<'balanced'>;
  /** 1 when the last day close this worker appended balanced, 0 when it found the books out of balance. */
  readonly booksBalanced: Gauge;
  /** Day closes recorded out of balance in the businessDays stream (set by the periodic audit). */
  readonly booksUnbalancedCloses: Gauge;
  /** Counts a day close and sets booksBalanced (an unbalanced close also raises booksUnbalancedCloses at once). */
  recordDayClose(balanced: boolean): void;
  /** Reports these queues' job counts by state, read when the metrics are scraped. */
  observeQueues(queues: readonly QueueLike[]): void;
  /** Reports the transfers the transfer process is working on, read when the metrics are scraped. */
  observeTransferProcess(inFlight: () => number): void;
}

/** What the queue gauge needs of a BullMQ queue. */
export interface QueueLike {
  readonly name: string;
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
}

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

const cache = new WeakMap<Registry, WorkerMetrics>();

export function workerMetrics(registry: Registry = new Registry()): WorkerMetrics {
  const cached = cache.get(registry);
  if (cached) return cached;
  const registers = [registry];
  const metrics: WorkerMetrics = {
    registry,
    transferSteps: new Counter({ name: 'bank_transfer_steps_total', help: 'Transfer steps run by the worker (settlements)', labelNames: ['step'], registers }),
    transferJobFailures: new Counter({ name: 'bank_worker_job_failures_total', help: 'Failed job attempts', labelNames: ['queue'], registers }),
    sweeperRequeued: new Counter({
      name: 'bank_transfer_sweeper_requeued_total',
      help: 'Transfers the sweeper acted on (settlements scheduled again, abandoned requests, unfinished transfers run)',
      labelNames: ['step'],
      registers,
    }),
    sweeperRuns: new Counter({ name: 'bank_transfer_sweeper_runs_total', help: 'Sweeper runs', labelNames: ['result'], registers }),
    auditRuns: new Counter({ name: 'bank_read_model_audit_runs_total', help: 'Periodic read-model audits', labelNames: ['result'], registers }),
    auditOk: new Gauge({ name: 'bank_read_model_audit_ok', help: '1 when the last audit found the read models equal to the replay, else 0', registers }),
    auditMismatches: new Gauge({ name: 'bank_read_model_audit_mismatches', help: 'Mismatches found by the last audit', registers }),
    auditLastRun: new Gauge({ name: 'bank_read_model_audit_last_run_seconds', help: 'Unix time of the last audit', registers }),
    dayCloses: new Counter({ name: 'bank_cob_day_closes_total', help: 'Day closes appended by the COB, by whether the books balanced', labelNames: ['balanced'], registers }),
    booksBalanced: new Gauge({ name: 'bank_books_balanced', help: '1 when the last day close balanced, 0 when it found the books out of balance', registers }),
    booksUnbalancedCloses: new Gauge({ name: 'bank_books_unbalanced_closes', help: 'Day closes recorded out of balance (any above 0 fails the periodic audit)', registers }),
    recordDayClose(balanced) {
      metrics.dayCloses.inc({ balanced: String(balanced) });
      metrics.booksBalanced.set(balanced ? 1 : 0);
      if (!balanced) metrics.booksUnbalancedCloses.inc();
    },
    observeQueues(queues) {
      observed.push(...queues);
    },
    observeTransferProcess(inFlight) {
      transfersInFlight = inFlight;
    },
  };
  const observed: QueueLike[] = [];
  let transfersInFlight: (() => number) | undefined;
  new Gauge({
    name: 'bank_queue_jobs',
    help: 'Jobs in the BullMQ queues, by queue and state',
    labelNames: ['queue', 'state'],
    registers,
    async collect() {
      this.reset();
      for (const queue of observed) {
        const counts = await queue.getJobCounts(...QUEUE_STATES).catch(() => undefined);
        if (!counts) continue;
        for (const state of QUEUE_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
      }
    },
  });
  new Gauge({
    name: 'bank_transfer_process_in_flight',
    help: 'Transfers the transfer process is working on',
    registers,
    collect() {
      this.set(transfersInFlight?.() ?? 0);
    },
  });
  cache.set(registry, metrics);
  return metrics;
}

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
}

const cache = new WeakMap<Registry, WorkerMetrics>();

export function workerMetrics(registry: Registry = new Registry()): WorkerMetrics {
  const cached = cache.get(registry);
  if (cached) return cached;
  const registers = [registry];
  const metrics: WorkerMetrics = {
    registry,
    transferSteps: new Counter({ name: 'bank_transfer_steps_total', help: 'Transfer steps run by the worker', labelNames: ['step'], registers }),
    transferJobFailures: new Counter({ name: 'bank_worker_job_failures_total', help: 'Failed job attempts', labelNames: ['queue'], registers }),
    sweeperRequeued: new Counter({
      name: 'bank_transfer_sweeper_requeued_total',
      help: 'Transfer steps the sweeper found without a job and queued again',
      labelNames: ['step'],
      registers,
    }),
    sweeperRuns: new Counter({ name: 'bank_transfer_sweeper_runs_total', help: 'Sweeper runs', labelNames: ['result'], registers }),
    auditRuns: new Counter({ name: 'bank_read_model_audit_runs_total', help: 'Periodic read-model audits', labelNames: ['result'], registers }),
    auditOk: new Gauge({ name: 'bank_read_model_audit_ok', help: '1 when the last audit found the read models equal to the replay, else 0', registers }),
    auditMismatches: new Gauge({ name: 'bank_read_model_audit_mismatches', help: 'Mismatches found by the last audit', registers }),
    auditLastRun: new Gauge({ name: 'bank_read_model_audit_last_run_seconds', help: 'Unix time of the last audit', registers }),
  };
  cache.set(registry, metrics);
  return metrics;
}

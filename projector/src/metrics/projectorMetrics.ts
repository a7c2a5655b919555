import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The projector's Prometheus metrics. Merge `registry` into the API's (/api/metrics) with `Registry.merge`. */
export interface ProjectorMetrics {
  readonly registry: Registry;
  /** The prepare (global sequence) part of the applied position. */
  readonly appliedPosition: Gauge;
  /** Events in the log after the applied position (PostgreSQL: sequence numbers; EventStoreDB: log distance). */
  readonly lagEvents: Gauge;
  /** Age of the oldest event not applied yet, in milliseconds (0 when caught up). */
  readonly lagMilliseconds: Gauge;
  readonly eventsApplied: Counter;
  readonly unknownEvents: Counter;
  readonly batches: Counter;
  readonly batchSeconds: Histogram;
  /** Events per batch: small when caught up, up to the most per batch when behind. */
  readonly batchEvents: Histogram;
  /** Seconds from an event's record time to the commit of the batch that applied it. */
  readonly applyDelaySeconds: Histogram;
  /** Failures by kind: `apply` (an event could not be applied: the projector stopped), `transient` (retried). */
  readonly failures: Counter;
  readonly checkpointResyncs: Counter;
  /** 1 while this instance holds the leader lock and applies events, 0 on a standby. */
  readonly leader: Gauge;
  /** 1 once an event could not be applied and the projector stopped. */
  readonly stopped: Gauge;
  readonly rebuilds: Counter;
  readonly rebuildEvents: Counter;
}

export const PROJECTOR_METRIC_PREFIX = 'bank_projector_';

export function createProjectorMetrics(registry: Registry = new Registry(), prefix = PROJECTOR_METRIC_PREFIX): ProjectorMetrics {
  const labelNames = ['projector'] as const;
  const registers = [registry];
  return {
    registry,
    appliedPosition: new Gauge({ name: `${prefix}applied_position`, help: 'Global position (prepare/sequence) of the last applied event', labelNames, registers }),
    lagEvents: new Gauge({ name: `${prefix}lag_events`, help: 'Events in the log not applied yet', labelNames, registers }),
    lagMilliseconds: new Gauge({ name: `${prefix}lag_milliseconds`, help: 'Age of the oldest event not applied yet (ms)', labelNames, registers }),
    eventsApplied: new Counter({ name: `${prefix}events_applied_total`, help: 'Events applied to the read models', labelNames, registers }),
    unknownEvents: new Counter({ name: `${prefix}unknown_events_total`, help: 'Events of an unknown type passed over', labelNames, registers }),
    batches: new Counter({ name: `${prefix}batches_total`, help: 'Batches committed', labelNames, registers }),
    batchSeconds: new Histogram({
      name: `${prefix}batch_duration_seconds`,
      help: 'Duration of a batch transaction',
      labelNames,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    batchEvents: new Histogram({
      name: `${prefix}batch_events`,
      help: 'Events per batch transaction',
      labelNames,
      buckets: [1, 10, 50, 100, 250, 500, 1000, 2500, 5000, 10000],
      registers,
    }),
    applyDelaySeconds: new Histogram({
      name: `${prefix}apply_delay_seconds`,
      help: 'From an event being recorded to its batch committing',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60],
      registers,
    }),
    failures: new Counter({ name: `${prefix}failures_total`, help: 'Batch failures by kind (apply: stopped; transient: retried)', labelNames: ['projector', 'kind'], registers }),
    checkpointResyncs: new Counter({ name: `${prefix}checkpoint_resyncs_total`, help: 'Times the stored checkpoint moved under the projector (rebuild swap, other instance)', labelNames, registers }),
    leader: new Gauge({ name: `${prefix}leader`, help: '1 while this instance is the active projector', labelNames, registers }),
    stopped: new Gauge({ name: `${prefix}stopped_on_error`, help: '1 when the projector stopped on an event it cannot apply', labelNames, registers }),
    rebuilds: new Counter({ name: `${prefix}rebuilds_total`, help: 'Completed rebuilds', labelNames, registers }),
    rebuildEvents: new Counter({ name: `${prefix}rebuild_events_total`, help: 'Events applied by rebuilds', labelNames, registers }),
  };
}

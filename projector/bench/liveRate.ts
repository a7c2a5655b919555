import type { EventStore } from '@bank/eventstore';
import { randomUUID } from 'node:crypto';
import type { BankTraffic, TrafficAppend } from '../src/testing/bankTraffic';
import type { watchAppliedPosition } from './appliedWatcher';

export interface RateResult {
  readonly targetRate: number;
  /** Events appended per second: all of the run's events over the time until the last append returned. */
  readonly achievedRate: number;
  readonly events: number;
  readonly seconds: number;
  /** Per event: from the start of its append to the read models having applied it (ms). */
  readonly lag: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };
  /** Per append: how long the append itself took (ms). */
  readonly append: { readonly p50: number; readonly p99: number };
  /** Per event: from its append's return (committed) to the read models having applied it (ms): the projector's part. */
  readonly afterAppend: { readonly p50: number; readonly p99: number };
  /**
   * The projector's part (append's return → applied) at p90 for the events whose appends started in the first and
   * in the last third of the run: a projector that keeps up has the same at both ends; one that falls behind has a
   * backlog, and a lag, that grow along the run.
   */
  readonly trend: { readonly firstThirdP90: number; readonly lastThirdP90: number };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * The projector's part at p90 for the appends started in the first third of a run of `runMs` and for those started
 * in its last third (or later: the run's last operations may start just after it).
 */
export function trendOf(
  /** [start of the append since the start of the run, the projector's part], in ms, for each append. */
  timeline: readonly (readonly [number, number])[],
  runMs: number,
): RateResult['trend'] {
  const third = runMs / 3;
  const partsOf = (from: number, to: number) =>
    timeline.filter(([at]) => at >= from && at < to).map(([, part]) => part).sort((a, b) => a - b);
  return { firstThirdP90: percentile(partsOf(0, third), 90), lastThirdP90: percentile(partsOf(2 * third, Infinity), 90) };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the bank's traffic at `rate` events per second for `seconds`: operations start on a schedule (every
 * millisecond or so, as many as are due), each append goes through the event store, and each event's lag is
 * measured from the start of its append to the checkpoint notification that covers it.
 */
export async function runAtRate(
  /** The writers: each stream's appends go to one of them (as if from several API processes). */
  stores: readonly EventStore[],
  traffic: BankTraffic,
  watcher: Awaited<ReturnType<typeof watchAppliedPosition>>,
  rate: number,
  seconds: number,
  /** Stop starting operations early, once this is set (e.g. when a rebuild running meanwhile is done). */
  until?: { done: boolean },
): Promise<RateResult> {
  const lags: number[] = [];
  const afterAppend: number[] = [];
  /** [start of the append, since the start of the run; the projector's part], for each append. */
  const timeline: [number, number][] = [];
  const appendTimes: number[] = [];
  const storeOf = (stream: string) => {
    let hash = 0;
    for (let i = 0; i < stream.length; i += 1) hash = (hash * 31 + stream.charCodeAt(i)) | 0;
    return stores[Math.abs(hash) % stores.length]!;
  };
  const waits: Promise<void>[] = [];
  let appended = 0;
  const start = performance.now();
  const append: TrafficAppend = async (stream, events) => {
    const started = performance.now();
    const { position } = await storeOf(stream).append(
      stream,
      events.map((event) => ({ id: randomUUID(), ...event })),
      'any',
    );
    const committed = performance.now();
    appendTimes.push(committed - started);
    appended += events.length;
    waits.push(
      watcher.applied(position).then(() => {
        const now = performance.now();
        timeline.push([started - start, now - committed]);
        for (let i = 0; i < events.length; i += 1) {
          lags.push(now - started);
          afterAppend.push(now - committed);
        }
      }),
    );
  };

  const operations: Promise<void>[] = [];
  let issued = 0;
  const end = start + seconds * 1000;
  for (let now = start; now < end && !until?.done; now = performance.now()) {
    const due = ((now - start) / 1000) * rate;
    while (issued < due) {
      const operation = traffic.start(append);
      issued += operation.events;
      operations.push(operation.done);
    }
    await tick(1);
  }
  const issuedIn = (performance.now() - start) / 1000;
  await Promise.all(operations);
  const appendedIn = (performance.now() - start) / 1000;
  await Promise.all(waits);
  lags.sort((a, b) => a - b);
  afterAppend.sort((a, b) => a - b);
  appendTimes.sort((a, b) => a - b);
  return {
    targetRate: rate,
    achievedRate: Math.round(appended / appendedIn),
    events: appended,
    seconds: issuedIn,
    lag: { p50: percentile(lags, 50), p90: percentile(lags, 90), p99: percentile(lags, 99), max: lags.at(-1) ?? NaN },
    append: { p50: percentile(appendTimes, 50), p99: percentile(appendTimes, 99) },
    afterAppend: { p50: percentile(afterAppend, 50), p99: percentile(afterAppend, 99) },
    trend: trendOf(timeline, issuedIn * 1000),
  };
}

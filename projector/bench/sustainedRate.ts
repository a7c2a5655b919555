import type { EventStore } from '@bank/eventstore';
import type { BankTraffic } from '../src/testing/bankTraffic';
import type { watchAppliedPosition } from './appliedWatcher';
import { runAtRate, type RateResult } from './liveRate';

/** A rate is sustained when the appends keep up with it and the projector keeps up with the appends. */
export const SUSTAINED = {
  /** Appended at least this share of the target rate. */
  achievedShare: 0.95,
  /** The projector's part (append's return → applied) stays under this at p99: it is not falling behind. */
  afterAppendP99Ms: 1_000,
} as const;

export function sustains(result: RateResult): boolean {
  return result.achievedRate >= SUSTAINED.achievedShare * result.targetRate && result.afterAppend.p99 <= SUSTAINED.afterAppendP99Ms;
}

export interface SustainedRateSearch {
  /** The highest rate tried that was sustained (0: none, not even the lowest). */
  readonly sustained: number;
  /** The lowest rate tried that was not (undefined: every rate tried was). */
  readonly failed: number | undefined;
  readonly tries: readonly RateResult[];
}

/**
 * The highest append rate this machine sustains with the projector running: rates doubled from `start` until one
 * is not sustained (or `max` is), then `refine` halvings of the interval between the last good and the first bad.
 * Each try runs `seconds`; `settle` is awaited after each (the projector catching up) so that tries do not overlap.
 */
export async function findSustainedRate(options: {
  readonly writers: readonly EventStore[];
  readonly traffic: BankTraffic;
  readonly applied: Awaited<ReturnType<typeof watchAppliedPosition>>;
  readonly settle: (what: string) => Promise<void>;
  readonly start?: number;
  readonly max?: number;
  readonly seconds?: number;
  readonly refine?: number;
  /**
   * Watches other databases holding the server's visibility fence during a try (fenceWatch.ts). A try that fails
   * while they held it for more than a tenth of it is run again (up to `retries` times): it measured them, not us.
   */
  readonly watchFence?: () => { stop(): Promise<{ readonly heldMs: number; readonly text: string }> };
  readonly retries?: number;
  readonly log?: (line: string) => void;
}): Promise<SustainedRateSearch> {
  const seconds = options.seconds ?? 5;
  const max = options.max ?? 40_000;
  const tries: RateResult[] = [];
  const attempt = async (rate: number): Promise<boolean> => {
    for (let run = 0; ; run += 1) {
      const fence = options.watchFence?.();
      const result = await runAtRate(options.writers, options.traffic, options.applied, rate, seconds);
      const foreign = await fence?.stop();
      await options.settle(`the search at ${rate} events/s`);
      const ok = sustains(result);
      const disturbed = !ok && foreign !== undefined && foreign.heldMs > (seconds * 1000) / 10;
      options.log?.(
        `  try ${rate} events/s: achieved ${result.achievedRate}/s, append p99 ${result.append.p99.toFixed(1)} ms, ` +
          `append's return → applied p99 ${result.afterAppend.p99.toFixed(1)} ms, lag p99 ${result.lag.p99.toFixed(1)} ms: ` +
          `${ok ? 'sustained' : disturbed ? 'not sustained, but other databases held the fence' : 'not sustained'}${foreign ? `; ${foreign.text}` : ''}`,
      );
      if (!disturbed || run >= (options.retries ?? 2)) {
        tries.push(result);
        return ok;
      }
    }
  };
  let good = 0;
  let bad: number | undefined;
  for (let rate = options.start ?? 500; rate <= max; rate *= 2) {
    if (await attempt(rate)) good = rate;
    else {
      bad = rate;
      break;
    }
  }
  for (let step = 0; bad !== undefined && step < (options.refine ?? 3); step += 1) {
    const low = good === 0 ? Math.max(50, Math.round(bad / 4)) : good;
    const mid = Math.round((low + bad) / 2 / 50) * 50;
    if (mid <= low || mid >= bad) break;
    if (await attempt(mid)) good = mid;
    else bad = mid;
  }
  return { sustained: good, failed: bad, tries };
}

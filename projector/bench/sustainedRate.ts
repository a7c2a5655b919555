import type { EventStore } from '@bank/eventstore';
import type { BankTraffic } from '../src/testing/bankTraffic';
import type { watchAppliedPosition } from './appliedWatcher';
import { runAtRate, type RateResult } from './liveRate';

/** A rate is sustained when the appends keep up with it and the projector keeps up with the appends. */
export const SUSTAINED = {
  /** Appended at least this share of the target rate. */
  achievedShare: 0.95,
  /** The projector's part (append's return → applied) stays under this at p99. */
  afterAppendP99Ms: 1_000,
  /**
   * And it does not grow along the try: its p90 in the last third at most this many times the first third's, plus
   * `growthSlackMs`. A projector slower than the appends builds a backlog that grows for as long as the try runs, so
   * a short try can end under the p99 bound above at a rate the projector cannot hold (on 1 December a search of
   * 5 s tries called 6,000 events/s sustained while the projector's part went from 257 to 591 ms at p90 within it).
   */
  growthFactor: 1.5,
  growthSlackMs: 50,
} as const;

/** Why a rate was not sustained (undefined: it was). */
export function unsustainedBecause(result: RateResult): string | undefined {
  if (result.achievedRate < SUSTAINED.achievedShare * result.targetRate) {
    return `appended ${result.achievedRate}/s, under ${SUSTAINED.achievedShare * 100} % of the rate`;
  }
  if (!(result.afterAppend.p99 <= SUSTAINED.afterAppendP99Ms)) {
    return `the projector's part over ${SUSTAINED.afterAppendP99Ms} ms at p99`;
  }
  const { firstThirdP90, lastThirdP90 } = result.trend;
  if (!(lastThirdP90 <= SUSTAINED.growthFactor * firstThirdP90 + SUSTAINED.growthSlackMs)) {
    return `the projector's part grew along the try (p90 ${firstThirdP90.toFixed(1)} → ${lastThirdP90.toFixed(1)} ms)`;
  }
  return undefined;
}

export function sustains(result: RateResult): boolean {
  return unsustainedBecause(result) === undefined;
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
  const seconds = options.seconds ?? 10;
  const max = options.max ?? 40_000;
  const tries: RateResult[] = [];
  const attempt = async (rate: number): Promise<boolean> => {
    for (let run = 0; ; run += 1) {
      const fence = options.watchFence?.();
      const result = await runAtRate(options.writers, options.traffic, options.applied, rate, seconds);
      const foreign = await fence?.stop();
      await options.settle(`the search at ${rate} events/s`);
      const why = unsustainedBecause(result);
      const ok = why === undefined;
      const disturbed = !ok && foreign !== undefined && foreign.heldMs > (seconds * 1000) / 10;
      options.log?.(
        `  try ${rate} events/s: achieved ${result.achievedRate}/s, append p99 ${result.append.p99.toFixed(1)} ms, ` +
          `append's return → applied p99 ${result.afterAppend.p99.toFixed(1)} ms (p90 ${result.trend.firstThirdP90.toFixed(1)} ms in the first third, ` +
          `${result.trend.lastThirdP90.toFixed(1)} ms in the last), lag p99 ${result.lag.p99.toFixed(1)} ms: ` +
          `${ok ? 'sustained' : `not sustained (${why})${disturbed ? ', but other databases held the fence' : ''}`}${foreign ? `; ${foreign.text}` : ''}`,
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

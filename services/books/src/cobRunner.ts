import { sleep, type Logger } from '@bank/platform';
import type { Cob } from './cobPipeline';

export interface CobRunnerOptions {
  readonly cob: Cob;
  /** COB_TICK_MS: how often the worker looks for a date to close. */
  readonly tickMs: number;
  readonly logger?: Logger;
}

export interface CobRunnerHandle {
  /** Resolves once the tick at start has run (or failed and was logged). */
  readonly ready: Promise<void>;
  /** Runs a tick now: the dates it closed ([] when another process holds the COB lock). */
  tick(): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * The worker's COB: a tick at start and every tickMs (cobPipeline.ts's runDue). Any number of workers may run one:
 * the COB lock lets one work at a time, and the others' ticks skip. A tick that fails is logged and the next one
 * goes on from the steps recorded.
 */
export function startCobRunner(options: CobRunnerOptions): CobRunnerHandle {
  const stopping = new AbortController();
  let running: Promise<string[]> | undefined;
  const tick = (): Promise<string[]> => {
    // One tick at a time in this process: a tick asked for while one runs waits for it, then runs.
    const next = (running ?? Promise.resolve([])).catch(() => []).then(() => options.cob.runDue());
    running = next;
    return next;
  };
  const logged = (): Promise<void> =>
    tick().then(
      (closed) => {
        if (closed.length > 0) options.logger?.info({ closed }, `Close of business: ${closed.length} date(s) closed`);
      },
      (error: unknown) => options.logger?.error({ err: error }, 'Close of business failed; the next tick goes on from the steps recorded'),
    );
  const ready = logged();
  const done = (async () => {
    await ready;
    while (!stopping.signal.aborted) {
      await sleep(options.tickMs, stopping.signal);
      if (stopping.signal.aborted) break;
      await logged();
    }
  })();
  return {
    ready,
    tick,
    async stop() {
      stopping.abort();
      await done;
      await running?.catch(() => undefined);
    },
  };
}

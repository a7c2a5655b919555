import { Presets, SingleBar } from 'cli-progress';

/** One step of a long job: how far it is, of how much (when known), and what it is doing now. */
export interface ProgressUpdate {
  readonly phase: string;
  readonly done: number;
  readonly total?: number;
  /** What is counted ("events", "streams"). */
  readonly unit: string;
  /** More of where it stands, shown after the rate ("1,212,749 events"); a change of it is not a new phase. */
  readonly detail?: string;
}

export interface ProgressReporter {
  update(progress: ProgressUpdate): void;
  /** Ends the bar (or prints the last line); call before printing the result. */
  stop(): void;
}

export interface ProgressOptions {
  /** Where plain lines go when stdout is not a terminal. */
  readonly print: (line: string) => void;
  /** A bar on a terminal (default: whether stdout is one); otherwise plain lines. */
  readonly tty?: boolean;
  /** At most one plain line per this long, besides each phase's first and last (default 5 s). */
  readonly everyMs?: number;
}

/**
 * Progress of a long CLI (a rebuild, a verification of the whole log): on a terminal a bar with the rate and the ETA
 * (cli-progress), one per phase; otherwise a plain line per phase change and at most one every few seconds, so a log
 * file shows how it went without a line per batch.
 */
export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  const tty = options.tty ?? Boolean(process.stdout.isTTY);
  const everyMs = options.everyMs ?? 5_000;
  let bar: SingleBar | undefined;
  let phase: string | undefined;
  let phaseStarted = Date.now();
  let lastLine = 0;
  let last: ProgressUpdate | undefined;
  let lastPrinted = false;

  // What the phase itself did: a phase may start from a count carried over from the one before (a rebuild's events).
  let phaseStartDone = 0;
  const rate = (update: ProgressUpdate) => Math.round((update.done - phaseStartDone) / Math.max(0.001, (Date.now() - phaseStarted) / 1000));
  const line = (update: ProgressUpdate) => {
    if (update.done === 0 && update.total === undefined) return `${update.phase}…`;
    return `${update.phase}: ${update.done}${update.total !== undefined ? ` of ${update.total}` : ''} ${update.unit} (${rate(update)} ${update.unit}/s)${update.detail ? `, ${update.detail}` : ''}`;
  };

  function finishPhase(): void {
    if (bar) {
      bar.stop();
      bar = undefined;
    } else if (last && !tty && !lastPrinted) options.print(line(last));
  }

  return {
    update(update) {
      if (update.phase !== phase) {
        finishPhase();
        phase = update.phase;
        phaseStarted = Date.now();
        // A count carried over from the phase before (same unit, not less) is not this phase's work.
        phaseStartDone = last && last.unit === update.unit && last.done <= update.done ? last.done : 0;
        lastLine = 0;
        if (tty && update.total !== undefined) {
          bar = new SingleBar({ format: `${update.phase} |{bar}| {value}/{total} ${update.unit}, {rate} ${update.unit}/s, ETA {eta_formatted}{detail}`, hideCursor: true }, Presets.shades_classic);
          bar.start(update.total, 0, { rate: 0, detail: '' });
        }
      }
      last = update;
      lastPrinted = false;
      if (bar) {
        if (update.total !== undefined && update.total !== bar.getTotal()) bar.setTotal(update.total);
        bar.update(update.done, { rate: rate(update), detail: update.detail ? `, ${update.detail}` : '' });
        return;
      }
      const now = Date.now();
      if (lastLine === 0 || now - lastLine >= everyMs) {
        lastLine = now;
        if (!tty || update.total === undefined) {
          options.print(line(update));
          lastPrinted = true;
        }
      }
    },
    stop() {
      finishPhase();
      last = undefined;
    },
  };
}

/**
 * A graceful stop, one named step after another, so that a stop that never ends can say where it is: "worker: ach"
 * rather than nothing. A step may hold steps of its own (a nested ShutdownSteps, given as `inner`).
 */
export class ShutdownSteps {
  private step: string | undefined;
  private inner: (() => string | undefined) | undefined;

  /** Runs one step of the stop; `inner` names the step inside it, when the step has steps of its own. */
  async run<T>(name: string, work: () => Promise<T> | T, inner?: () => string | undefined): Promise<T> {
    this.step = name;
    this.inner = inner;
    try {
      return await work();
    } finally {
      this.step = undefined;
      this.inner = undefined;
    }
  }

  /** The step running now ("worker: ach" for a nested one), or undefined between steps and when done. */
  current(): string | undefined {
    if (this.step === undefined) return undefined;
    const inner = this.inner?.();
    return inner === undefined ? this.step : `${this.step}: ${inner}`;
  }
}

/** What stopWithin reports when the deadline passes first. */
export interface StopOverdue {
  readonly deadlineMs: number;
  /** The step still running (ShutdownSteps.current), when the stop names its steps. */
  readonly step: string | undefined;
}

/**
 * Waits for a graceful `stop`, at most `deadlineMs`: 'stopped' when it ended in time (it throws what `stop` threw), or
 * 'overdue' after `onOverdue` was told which step was still running. A process then exits anyway: a stop that waits
 * for ever (a job that never ends, a connection that never answers) must not keep a process alive that was asked
 * to go, and everything the bank does survives being cut short (each step is safe under SIGKILL).
 */
export async function stopWithin(stop: () => Promise<void>, deadlineMs: number, step: () => string | undefined, onOverdue: (overdue: StopOverdue) => void): Promise<'stopped' | 'overdue'> {
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<'overdue'>((resolve) => {
    timer = setTimeout(() => {
      onOverdue({ deadlineMs, step: step() });
      resolve('overdue');
    }, deadlineMs);
  });
  try {
    return await Promise.race([stop().then(() => 'stopped' as const), overdue]);
  } finally {
    clearTimeout(timer);
  }
}

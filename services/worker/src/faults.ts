/**
 * Fault injection for the crash tests: the process stops at a named point of the transfer process, either hanging
 * forever (the test then kills it with SIGKILL) or killing itself with SIGKILL. Ignored in production.
 *
 * Points (in the order a transfer passes them):
 *   api-after-requested      API: TransferRequested appended, payer not yet debited
 *   api-after-debit          API: payer debited, TransferDebited not yet appended
 *   api-before-enqueue       API: TransferDebited appended, next job not yet queued
 *   before-credit            worker: about to append the payee's credit
 *   after-credit             worker: payee credited, payer's debit not yet completed / TransferCredited not appended
 *   before-settle            worker: settlement job about to record the outcome
 *   mid-settle               worker: payer's debit completed (or TransferFailed appended), transfer not yet settled (or refunded)
 *   after-refund-credit      worker: payer refunded, TransferRefunded not yet appended
 *
 * Every hit writes `FAULT <point>` on stdout first, so a test knows where the process stopped.
 */
export const faultPoints = [
  'api-after-requested',
  'api-after-debit',
  'api-before-enqueue',
  'before-credit',
  'after-credit',
  'before-settle',
  'mid-settle',
  'after-refund-credit',
] as const;
export type FaultPoint = (typeof faultPoints)[number];

export type FaultHook = (point: FaultPoint) => Promise<void>;

export const noFaults: FaultHook = async () => undefined;

/** Builds the hook from a `WORKER_FAULT`-style spec: `before-credit:hang,mid-settle:exit`. */
export function faultHookFromSpec(spec: string | undefined, nodeEnv = process.env.NODE_ENV): FaultHook {
  if (!spec || nodeEnv === 'production') return noFaults;
  const modes = new Map<string, 'hang' | 'exit'>();
  for (const item of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [point = '', mode = 'hang'] = item.split(':');
    if (!(faultPoints as readonly string[]).includes(point)) throw new Error(`Unknown fault point ${point}`);
    if (mode !== 'hang' && mode !== 'exit') throw new Error(`Unknown fault mode ${mode}`);
    modes.set(point, mode);
  }
  return async (point) => {
    const mode = modes.get(point);
    if (!mode) return;
    process.stdout.write(`FAULT ${point}\n`);
    if (mode === 'exit') process.kill(process.pid, 'SIGKILL');
    await new Promise<never>(() => {
      // hang until killed
    });
  };
}

/**
 * Fault injection for the crash tests: the process stops at a named point of a transfer, either hanging forever (the
 * test then kills it with SIGKILL) or killing itself with SIGKILL. Ignored in production.
 *
 * Points (in the order a transfer passes them):
 *   after-debit          API: the payer's debit (the request) appended, not yet answered
 *   before-credit        process: about to credit the payee
 *   after-credit         process: payee credited; the payer's debit not yet completed, the transfer not yet recorded
 *   after-complete       process: payer's debit completed; the transfer's record not yet appended
 *   after-send           process: external transfer's record started; not yet queued for its ACH file
 *   after-refund-credit  process: payer refunded; TransferRefunded not yet appended
 *
 * Every hit writes `FAULT <point> <transferId>` on stdout first (the id where the caller knows it), so a test knows
 * where the process stopped, and for which transfer: a process that starts again from its checkpoint runs the
 * transfers after it again, and passes their points again.
 */
export const faultPoints = [
  'after-debit',
  'before-credit',
  'after-credit',
  'after-complete',
  'after-send',
  'after-refund-credit',
] as const;
export type FaultPoint = (typeof faultPoints)[number];

export type FaultHook = (point: FaultPoint, transferId?: string) => Promise<void>;

export const noFaults: FaultHook = async () => undefined;

/** Builds the hook from a `TRANSFER_FAULT`-style spec: `before-credit:hang,after-send:exit`. */
export function faultHookFromSpec(spec: string | undefined, nodeEnv = process.env.NODE_ENV): FaultHook {
  if (!spec || nodeEnv === 'production') return noFaults;
  const modes = new Map<string, 'hang' | 'exit'>();
  for (const item of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [point = '', mode = 'hang'] = item.split(':');
    if (!(faultPoints as readonly string[]).includes(point)) throw new Error(`Unknown fault point ${point}`);
    if (mode !== 'hang' && mode !== 'exit') throw new Error(`Unknown fault mode ${mode}`);
    modes.set(point, mode);
  }
  return async (point, transferId) => {
    const mode = modes.get(point);
    if (!mode) return;
    process.stdout.write(`FAULT ${point}${transferId ? ` ${transferId}` : ''}\n`);
    if (mode === 'exit') process.kill(process.pid, 'SIGKILL');
    await new Promise<never>(() => {
      // hang until killed
    });
  };
}

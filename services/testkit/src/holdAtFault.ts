/**
 * The fault hook of a script that a crash test runs as a child process, from its `HOLD_AT` (`<fault point>:<n>`):
 * the n-th time the script reaches that point it prints `HOLD <point>` and hangs there, for the test to kill it
 * with SIGKILL. Without a spec, a hook that does nothing; a point not among `points` is an error.
 */
export function holdAtFault<P extends string>(spec: string | undefined, points: readonly P[]): (reached: P) => Promise<void> {
  if (!spec) return async () => undefined;
  const [point = '', nth = '1'] = spec.split(':');
  if (!(points as readonly string[]).includes(point)) throw new Error(`Unknown fault point ${point}`);
  let hits = 0;
  return async (reached: P) => {
    if (reached !== point) return;
    hits += 1;
    if (hits !== Number(nth)) return;
    process.stdout.write(`HOLD ${point}\n`);
    await new Promise<never>(() => {
      // hangs until the test kills the process
    });
  };
}

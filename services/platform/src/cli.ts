/**
 * Runs a command-line tool's main: its exit status is what main returns (0 when nothing), 1 when it throws, with the
 * error's message on stderr (its stack too when DEBUG is set). The status is set, not forced: output still being
 * written to a pipe is not cut off.
 */
export function runMain(main: () => Promise<number | void>): void {
  main().then(
    (code) => {
      process.exitCode = code ?? 0;
    },
    (error: unknown) => {
      const detail = error instanceof Error ? (process.env.DEBUG ? (error.stack ?? error.message) : error.message) : String(error);
      process.stderr.write(`${detail}\n`);
      process.exitCode = 1;
    },
  );
}

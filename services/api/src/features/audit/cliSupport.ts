import { runMain } from '@bank/platform';

/** What the audit CLIs (services/api/src/cli/audit*.ts) print through; tests can capture it. */
export interface CliIo {
  out(line: string): void;
  error(line: string): void;
  /** Whether out goes to a terminal (progress bars) or to a file or pipe (plain lines). */
  readonly tty?: boolean;
}

export const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
  tty: Boolean(process.stdout.isTTY),
};

/** Runs a CLI's main with the process's arguments and sets the exit status it returns (1 on a crash). */
export function runCli(main: (argv: readonly string[], io: CliIo) => Promise<number>): void {
  runMain(() => main(process.argv.slice(2), processIo));
}

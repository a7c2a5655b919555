/**
 * npm run db:restore-drill: the restore drill of restoreDrill.ts on servers of its own (a private PostgreSQL and
 * Redis, a pgBackRest repository in a temporary folder), printing each step and the checks' results. Needs Debian's
 * pgbackrest. Exit status 0 when every check holds.
 */
import { runRestoreDrill } from './restoreDrill';

const report = await runRestoreDrill((line) => console.log(line));
console.log(report.auditOutput.trim());
const checks: [string, boolean][] = [
  [`the log ends at the last event committed by T (${report.restoredEvents} of ${report.eventsAtLoss} events, position ${report.restoredLastPosition})`, report.restoredEvents === report.eventsCommittedByT && report.restoredLastPosition === report.lastPositionByT],
  ['audit:verify --restored is clean; the later checkpoints are beyond the restored log', report.auditExitCode === 0],
  ['the read models rebuilt equal the replay', report.rebuildExitCode === 0],
  [`the trial balance is balanced (debits ${report.trialBalance.totalDebits}, credits ${report.trialBalance.totalCredits})`, report.trialBalance.balanced],
  [`money conserved (${report.moneyCents} cents)`, report.moneyCents === report.expectedMoneyCents],
];
for (const [what, ok] of checks) console.log(`${ok ? 'OK  ' : 'FAIL'} ${what}`);
process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;

/**
 * npm run audit:verify
 *
 * Checks the hash chain of every stream of the event store and compares every balance of the read models with a
 * replay of the events. Prints what was checked and every mismatch. Exit status: 0 intact, 1 a mismatch (or a
 * failure), 2 bad arguments.
 */
import { createEventStore } from '@bank/eventstore';
import { createPool, loadConfig } from '@bank/platform';
import { createAuditVerifier } from '../features/audit/auditVerifier';
import { runCli, type CliIo } from '../features/audit/cliSupport';

export async function auditVerify(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.length > 0) {
    io.error('Usage: npm run audit:verify');
    return 2;
  }
  const config = loadConfig();
  const pool = createPool(config.DATABASE_URL, 2);
  const store = await createEventStore(config, { pool });
  try {
    const report = await createAuditVerifier({ config, pool, store })();
    const { streams, events, balances } = report.checked;
    io.out(`Checked ${events} events in ${streams} streams, and ${balances} balances against the read models.`);
    for (const note of report.notes) io.out(`Note: ${note}`);
    if (report.ok) {
      io.out('OK: every hash chain is intact and every balance matches its replay.');
      return 0;
    }
    io.out(`FAILED: ${report.mismatches.length} mismatch${report.mismatches.length === 1 ? '' : 'es'}`);
    for (const mismatch of report.mismatches) {
      const where = [`revision ${mismatch.revision ?? '-'}`, `position ${mismatch.position ?? '-'}`].join(', ');
      io.out(`  ${mismatch.kind.padEnd(11)} ${mismatch.stream}  (${where})  ${mismatch.reason}: ${mismatch.message}`);
    }
    return 1;
  } finally {
    await store.close();
    await pool.end();
  }
}

runCli(auditVerify);

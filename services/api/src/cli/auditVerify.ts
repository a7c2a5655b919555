/**
 * npm run audit:verify
 *
 * Checks the hash chain of every stream of the event store (keyed with CHAIN_KEYS), compares the log with the signed
 * checkpoints in CHECKPOINT_DIR (verified with CHECKPOINT_KEYS), and compares every balance and standing order of the
 * read models with a replay of the events. Prints what was checked and every mismatch. Exit status: 0 intact, 1 a mismatch (or a
 * failure), 2 bad arguments.
 */
import { loadChainKeys } from '@bank/commands';
import { createEventStore } from '@bank/eventstore';
import { loadCheckpointKeys, parseCheckpointSettings } from '@bank/integrity';
import { createLogger, createPool, createProgressReporter, loadConfig } from '@bank/platform';
import { createAuditVerifier } from '@bank/audit';
import { runCli, type CliIo } from '../features/audit/cliSupport';

export async function auditVerify(argv: readonly string[], io: CliIo): Promise<number> {
  // --restored: the database was restored from a backup to an earlier instant (docs/operations.md#restoring-to-an-instant).
  const restored = argv.length === 1 && argv[0] === '--restored';
  if (argv.length > 0 && !restored) {
    io.error('Usage: npm run audit:verify [-- --restored]');
    return 2;
  }
  const config = loadConfig();
  // Keys first: a production run without them stops before connecting to anything.
  const logger = createLogger('audit-verify', config.LOG_LEVEL);
  const chainKeys = loadChainKeys(config, process.env, logger);
  const checkpointSettings = parseCheckpointSettings(config, process.env);
  const checkpoints = { dir: checkpointSettings.dir, keys: loadCheckpointKeys(config, process.env, logger) };
  const pool = createPool(config.DATABASE_URL, 2);
  const store = await createEventStore(config, { pool });
  try {
    // A bar on a terminal (the whole log is read, then every stream): plain lines now and then otherwise.
    const progress = createProgressReporter({ print: (line) => io.out(line), ...(io.tty === undefined ? {} : { tty: io.tty }) });
    const report = await createAuditVerifier({ config, pool, store, chainKeys, checkpoints, restored })(({ phase, done, total }) =>
      progress.update({ phase: phase === 'scan' ? 'reading the log' : phase === 'streams' ? 'checking the streams' : 'comparing the read models', done, unit: phase === 'streams' ? 'streams' : 'events', ...(total === undefined ? {} : { total }) }),
    );
    progress.stop();
    const { streams, events, balances, standingOrders, journalLines } = report.checked;
    io.out(
      `Checked ${events} events in ${streams} streams, and ${balances} balances, ${standingOrders} standing order${standingOrders === 1 ? '' : 's'} and ${journalLines} journal line${journalLines === 1 ? '' : 's'} against the read models.`,
    );
    io.out(
      report.checkpoint
        ? `Compared with ${report.checkpoint.records} signed checkpoint record${report.checkpoint.records === 1 ? '' : 's'} in ${checkpoints.dir}, the newest of ${report.checkpoint.writtenAt} (position ${report.checkpoint.position}, ${report.checkpoint.streams} streams).`
        : `No signed checkpoint in ${checkpoints.dir}: the newest events of a stream could have been deleted unseen.`,
    );
    if (report.restore) {
      const { throughSeq, throughWrittenAt, beyondRecords, firstBeyondWrittenAt } = report.restore;
      io.out(
        throughSeq > 0
          ? `Restored log: it holds everything the signed checkpoints vouched for up to record ${throughSeq} (${throughWrittenAt}).`
          : 'Restored log: it ends before the first signed checkpoint record.',
      );
      if (beyondRecords > 0)
        io.out(
          `Beyond the restored log: ${beyondRecords} later checkpoint record${beyondRecords === 1 ? '' : 's'} (from ${firstBeyondWrittenAt}) vouch for events committed after the instant restored to; their signatures and links were checked, their events are not expected (not tampering). Move those files aside (keep them) before the bank writes new checkpoints.`,
        );
    }
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

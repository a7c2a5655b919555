import { describe, expect, it } from 'vitest';
import { runRestoreDrill } from './restoreDrill';

/**
 * The restore drill (restoreDrill.ts, also `npm run db:restore-drill`): a backup with pgBackRest, traffic, an instant
 * T, more traffic, the cluster lost and restored to T, the bank started on it.
 */
describe('restoring the database to an instant', () => {
  it('the log ends at the last event committed by T, the chains and the checkpoints up to T verify, the read models equal the replay, the books balance', async () => {
    const report = await runRestoreDrill((line) => console.log(`restore drill: ${line}`));
    console.log(`restore drill: audit:verify --restored said:\n${report.auditOutput}`);
    expect(report.transfersBeforeT).toBeGreaterThan(0);
    expect(report.transfersAfterT).toBeGreaterThan(0);
    // Events after T existed and are gone; those committed by T are all there, and no other.
    expect(report.eventsAtLoss).toBeGreaterThan(report.eventsCommittedByT);
    expect(report.restoredEvents).toBe(report.eventsCommittedByT);
    expect(report.restoredLastPosition).toBe(report.lastPositionByT);
    expect(report.auditExitCode, report.auditOutput).toBe(0);
    expect(report.auditOutput).toContain('OK: every hash chain is intact');
    expect(report.auditOutput).toMatch(/Beyond the restored log: \d+ later checkpoint record/);
    expect(report.rebuildExitCode, report.rebuildOutput).toBe(0);
    expect(report.trialBalance.balanced).toBe(true);
    expect(report.moneyCents).toBe(report.expectedMoneyCents);
  });
});

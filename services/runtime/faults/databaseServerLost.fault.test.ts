import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startHaPostgres, type HaPostgres } from '@bank/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRecord, createFaultBank, INITIAL_DOLLARS, repoRoot, sleep, waitForQuiet, type FaultBank } from './faultHarness';
import { answerCounts, finalAnswer, keyedTransferLoad } from './keyedLoad';

const exec = promisify(execFile);

/**
 * The database server lost: the bank (real processes, one DATABASE_URL) on a highly available PostgreSQL of its own
 * — Patroni managing a primary and a synchronous standby, etcd, HAProxy as the one endpoint (services/testkit
 * haPostgres.ts) — under a transfer load of 8 in flight, each transfer with its Idempotency-Key and retried with it
 * while its outcome is unknown.
 *
 *   Primary killed (SIGKILL of its postmaster): Patroni promotes the synchronous standby; the bank's pools drop the
 *   dead connections and reconnect through the same endpoint, its leaders (transfer process, projector, checkpoint
 *   writer) take their locks again on the new primary, nothing is restarted. Every transfer answered 201 is on the
 *   new primary exactly once, every retried one ends exactly once, money is conserved, audit:verify is clean.
 */
let fx: FaultBank<HaPostgres>;

beforeAll(async () => {
  fx = await createFaultBank({
    customers: 12,
    postgres: async () => {
      const ha = await startHaPostgres();
      await ha.waitHealthy();
      return ha;
    },
  });
}, 240_000);

afterAll(async () => {
  await fx?.destroy();
}, 60_000);

describe('the database server lost', () => {
  it('primary killed under load: the standby takes over, writes succeed within 15 s, every 201 present once, nothing restarted', async () => {
    const before = await fx.postgres.waitHealthy();
    const load = keyedTransferLoad(() => fx.bank.baseUrl, fx.customers, 8);
    await sleep(2_000);
    const killedAt = Date.now();
    await fx.postgres.killPostmaster(before);
    // Writes are back when a transfer sent after the kill is answered 201.
    const deadline = killedAt + 30_000;
    let recoveredAt: number | undefined;
    while (recoveredAt === undefined && Date.now() < deadline) {
      await sleep(100);
      recoveredAt = load.transfers.flatMap((t) => t.answers).find((a) => a.status === 201 && a.at - a.ms > killedAt)?.at;
    }
    await sleep(2_000);
    const transfers = await load.stop();
    const after = await fx.postgres.primary();
    const counts = answerCounts(transfers);
    const retried = transfers.filter((t) => t.answers.length > 1).length;
    console.log(
      `primary killed: ${transfers.length} transfers; answers ${JSON.stringify(counts)} (0 = no answer); ${retried} retried with their key; ` +
        `writes back ${recoveredAt === undefined ? 'never' : `${recoveredAt - killedAt} ms`} after the kill; primary ${before.name} → ${after?.name ?? 'none'}`,
    );
    expect(recoveredAt, 'a transfer sent after the kill answered 201').toBeDefined();
    expect(recoveredAt! - killedAt).toBeLessThan(15_000);
    expect(after?.name).not.toBe(before.name);
    expect(fx.bank.child.exitCode).toBeNull();
    expect(counts[500] ?? 0).toBe(0);
    expect(counts[503] ?? 0).toBeGreaterThan(0);
    // Every transfer ended (201 first time or after retries with its key), always with the same transfer.
    for (const transfer of transfers) {
      expect(finalAnswer(transfer).status, transfer.key).toBe(201);
      expect(new Set(transfer.answers.flatMap((a) => (a.transferId ? [a.transferId] : []))).size, transfer.key).toBe(1);
    }
    await waitForQuiet(fx.pool, 60_000);
    // Exactly once: the new primary holds one transfer per key, no more (the set-up makes none).
    const { rows } = await fx.pool.query<{ n: string; recovery: boolean }>('SELECT count(*)::text AS n, pg_is_in_recovery() AS recovery FROM rm.transfers');
    expect(rows[0]!.recovery).toBe(false);
    expect(Number(rows[0]!.n)).toBe(transfers.length);
    const record = await checkRecord(fx, transfers.map((t) => ({ ...finalAnswer(t), key: t.key })));
    expect(record.credited201).toBe(transfers.length);
    expect(BigInt(record.total)).toBe(BigInt(fx.customers.length * INITIAL_DOLLARS * 100));
    const verify = await exec(process.execPath, ['--import', 'tsx', 'services/api/src/cli/auditVerify.ts'], { cwd: repoRoot, env: { ...process.env, ...fx.env }, timeout: 60_000 });
    expect(verify.stdout).toContain('OK: every hash chain is intact');
    // The old primary rejoins as the synchronous standby (pg_rewind), as it must before the next failover.
    const rejoinStart = Date.now();
    await fx.postgres.waitHealthy(30_000);
    console.log(`primary killed: the old primary rejoined as the synchronous standby ${Date.now() - rejoinStart} ms after the check began`);
  });
});

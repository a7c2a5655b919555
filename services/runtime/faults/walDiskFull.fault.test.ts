import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startPrivatePostgres, type PrivatePostgres } from '@bank/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRecord, createFaultBank, INITIAL_DOLLARS, repoRoot, sleep, waitForQuiet, type FaultBank } from './faultHarness';
import { answerCounts, keyedTransferLoad } from './keyedLoad';
import { expectEachTransferOnce } from './keyedExpectations';
import { createSmallDisk, type SmallDisk } from './smallDisk';

const exec = promisify(execFile);

/**
 * WAL disk full: the bank's PostgreSQL (durable commits: fsync and synchronous_commit on) keeps pg_wal on a small
 * file system of its own (a 64 MB tmpfs; 1 MB segments, not recycled, so every new segment needs new space). Under
 * a load of 8 keyed transfers in flight, another process fills that disk and keeps it full for FULL_MS: PostgreSQL
 * cannot write its WAL (it stops with a PANIC and cannot finish its crash recovery while the disk is full). The bank
 * answers 503, never 500, and never 201 for a commit that was not made durable: every transfer answered 201 — before,
 * while and after the disk was full (a commit that still fitted in the current segment is durable) — is there after
 * recovery. Then the space is freed and PostgreSQL is started again if it is not running (as an operator
 * would); writes resume within RECOVERY_MS without restarting the bank, every transfer ends exactly once (retried
 * with its key), money is conserved and audit:verify is clean.
 */
const FULL_MS = 12_000;
const RECOVERY_MS = 20_000;

let disk: SmallDisk | undefined;
let fx: FaultBank<PrivatePostgres> | undefined;

beforeAll(async () => {
  disk = await createSmallDisk(64);
  const walDir = disk.walDir;
  fx = await createFaultBank({
    customers: 12,
    postgres: () =>
      startPrivatePostgres({
        durable: true,
        initdbArgs: ['--waldir', walDir, '--wal-segsize', '1'],
        // Checkpoints often enough that the WAL of normal traffic stays far below the disk's size; no recycled
        // segments (a full disk must stop the next segment, not be hidden by one prepared earlier).
        conf: { max_wal_size: '16MB', min_wal_size: '2MB', wal_recycle: 'off', checkpoint_timeout: '30s' },
      }),
  });
}, 240_000);

afterAll(async () => {
  // PostgreSQL first (its WAL is on the disk), then the disk, whatever failed before.
  await fx?.destroy().catch(() => undefined);
  await disk?.destroy();
}, 60_000);

describe('WAL disk full', () => {
  it('503s while full (never 500, no 201 lost), writes back after the space is freed and PostgreSQL restarted, every transfer once, money conserved', async () => {
    const bank = fx!;
    const load = keyedTransferLoad(() => bank.bank.baseUrl, bank.customers, 8);
    await sleep(2_000);
    const fullAt = Date.now();
    await disk!.fill();
    // PostgreSQL is down (or failing every write) within a moment of the disk being full.
    await sleep(FULL_MS);
    const wasRunning = await bank.postgres.running();
    await disk!.free();
    const freedAt = Date.now();
    // As an operator would: start the server if it stopped (a crash recovery that could not write its WAL ends it).
    if (!(await bank.postgres.running())) await bank.postgres.start();
    const restartedAt = Date.now();
    // The fault was the one meant: the server could not write its WAL.
    const serverLog = readFileSync(path.join(bank.postgres.dir, 'server.log'), 'utf8');
    const noSpace = serverLog.split('\n').find((line) => line.includes('No space left on device'));
    let recoveredAt: number | undefined;
    while (recoveredAt === undefined && Date.now() < freedAt + 60_000) {
      await sleep(100);
      recoveredAt = load.transfers.flatMap((t) => t.answers).find((a) => a.status === 201 && a.at - a.ms > freedAt)?.at;
    }
    await sleep(1_000);
    const transfers = await load.stop(60_000);
    const counts = answerCounts(transfers);
    const all = transfers.flatMap((t) => t.answers);
    // Sent after the disk was full and answered before it was freed.
    const whileFull = all.filter((a) => a.at - a.ms > fullAt + 1_000 && a.at < freedAt);
    const retried = transfers.filter((t) => t.answers.length > 1).length;
    console.log(
      `WAL disk full for ${FULL_MS / 1000} s: ${transfers.length} transfers; answers ${JSON.stringify(counts)} (0 = no answer); ${retried} retried with their key; ` +
        `while full ${JSON.stringify(answerCounts([{ key: 'full', answers: whileFull }]))}; PostgreSQL ${wasRunning ? 'still running' : 'stopped'} when the space was freed ` +
        `(restarted in ${restartedAt - freedAt} ms); writes back ${recoveredAt === undefined ? 'never' : `${recoveredAt - freedAt} ms`} after freeing the space`,
    );
    console.log(`WAL disk full: the server's log says ${noSpace ?? '(nothing about space)'}`);
    expect(noSpace, 'PostgreSQL reported the full disk').toBeDefined();
    expect(counts[500] ?? 0).toBe(0);
    expect(whileFull.some((a) => a.status === 503), 'some 503 while the disk was full').toBe(true);
    expect(recoveredAt, 'a transfer sent after the space was freed answered 201').toBeDefined();
    expect(recoveredAt! - freedAt).toBeLessThan(RECOVERY_MS);
    expect(bank.bank.child.exitCode).toBeNull();
    expectEachTransferOnce(transfers);
    await waitForQuiet(bank.pool, 60_000);
    // Every 201 (before, during and after) is on the recovered server, credited once; no transfer more than the keys.
    const { rows } = await bank.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM rm.transfers');
    expect(Number(rows[0]!.n)).toBe(transfers.length);
    const record = await checkRecord(bank, transfers.flatMap((t) => t.answers.map((a) => ({ ...a, key: t.key }))));
    expect(record.credited201).toBe(transfers.length);
    expect(BigInt(record.total)).toBe(BigInt(bank.customers.length * INITIAL_DOLLARS * 100));
    const verify = await exec(process.execPath, ['--import', 'tsx', 'services/api/src/cli/auditVerify.ts'], { cwd: repoRoot, env: { ...process.env, ...bank.env }, timeout: 60_000 });
    expect(verify.stdout).toContain('OK: every hash chain is intact');
  });
});

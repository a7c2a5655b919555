import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { startPrivatePostgres, type PrivatePostgres } from '@bank/testkit';
import { call } from '../bench/lib/bankClient';
import { backupCluster, checkArchive, pgBackRest, restoreToInstant, type BackupSettings } from '../src/backup/pgBackRest';
import { createFaultBank, INITIAL_DOLLARS, repoRoot, sleep, waitForQuiet, type FaultBank } from './faultHarness';
import { finalAnswer, keyedTransferLoad, type KeyedTransfer } from './keyedLoad';

const exec = promisify(execFile);

/**
 * The restore drill (npm run db:restore-drill; restoreDrill.fault.test.ts runs it in CI): a bank on a PostgreSQL of
 * its own that archives its WAL with pgBackRest; a full backup; transfers; an instant T; more transfers; the cluster
 * "lost" (stopped without a checkpoint, its data directory deleted); restored to T with pgBackRest; the bank started
 * again; then the checks of docs/operations.md (Restoring to an instant):
 *   - the log ends at the last event committed at or before T (PostgreSQL's commit timestamps, noted before the loss);
 *   - every hash chain verifies, and the signed checkpoints up to T verify, the later ones reported as beyond the
 *     restored log (`audit:verify --restored` against the files moved aside), not as tampering;
 *   - the read models rebuilt from the log equal the replay (`projections:rebuild` verifies every account);
 *   - the trial balance is balanced, and money is conserved.
 */
export interface DrillReport {
  readonly target: string;
  readonly transfersBeforeT: number;
  readonly transfersAfterT: number;
  readonly eventsAtLoss: number;
  readonly eventsCommittedByT: number;
  readonly lastPositionByT: string;
  readonly restoredEvents: number;
  readonly restoredLastPosition: string;
  readonly backupMs: number;
  readonly restoreMs: number;
  readonly auditExitCode: number;
  readonly auditOutput: string;
  readonly rebuildExitCode: number;
  readonly rebuildOutput: string;
  readonly trialBalance: { readonly balanced: boolean; readonly totalDebits: number; readonly totalCredits: number };
  readonly moneyCents: string;
  readonly expectedMoneyCents: string;
}

function pgBackRestConfig(dir: string, postgres: PrivatePostgres): string {
  return `[global]
repo1-path=${path.join(dir, 'repo')}
repo1-retention-full=2
log-path=${path.join(dir, 'log')}
lock-path=${path.join(dir, 'lock')}
log-level-console=warn
log-level-file=off
start-fast=y
compress-type=none

[bank]
pg1-path=${postgres.dataDir}
pg1-port=${postgres.port}
pg1-socket-path=${postgres.dir}
`;
}

async function runCli(file: string, args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', file, ...args], { cwd: repoRoot, env: { ...process.env, ...env }, timeout: 120_000, maxBuffer: 8 * 1024 * 1024 });
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof code === 'number' ? code : 1, output: `${stdout ?? ''}${stderr ?? ''}` };
  }
}

async function transferPhase(fx: FaultBank<PrivatePostgres>, ms: number): Promise<KeyedTransfer[]> {
  const load = keyedTransferLoad(() => fx.bank.baseUrl, fx.customers, 8);
  await sleep(ms);
  const transfers = await load.stop();
  const unfinished = transfers.filter((t) => finalAnswer(t).status !== 201);
  if (unfinished.length) throw new Error(`${unfinished.length} transfers did not end 201: ${JSON.stringify(unfinished[0])}`);
  return transfers;
}

export async function runRestoreDrill(say: (line: string) => void = () => undefined): Promise<DrillReport> {
  if (!existsSync('/usr/bin/pgbackrest')) throw new Error("The restore drill needs Debian's pgbackrest (apt-get install -y pgbackrest; .ci/run installs it)");
  const drillDir = mkdtempSync(path.join(tmpdir(), 'bank-drill-'));
  if (userInfo().uid === 0) {
    const { stdout: uid } = await exec('id', ['-u', 'postgres']);
    const { stdout: gid } = await exec('id', ['-g', 'postgres']);
    chownSync(drillDir, Number(uid.trim()), Number(gid.trim()));
  }
  const configFile = path.join(drillDir, 'pgbackrest.conf');
  const settings: BackupSettings = { PGBACKREST_STANZA: 'bank', PGBACKREST_CONFIG: configFile };
  let fx: FaultBank<PrivatePostgres> | undefined;
  let pool: pg.Pool | undefined;
  try {
    fx = await createFaultBank({
      customers: 8,
      env: { CHECKPOINT_EVERY_MS: '1000' },
      postgres: async () => {
        const postgres = await startPrivatePostgres({
          conf: { archive_mode: 'on', archive_command: `pgbackrest --config=${configFile} --stanza=bank archive-push %p`, track_commit_timestamp: 'on' },
        });
        try {
          writeFileSync(configFile, pgBackRestConfig(drillDir, postgres));
          await pgBackRest(settings, ['stanza-create']);
          return postgres;
        } catch (error) {
          await postgres.destroy();
          throw error;
        }
      },
    });
    const bank = fx;
    say('The bank runs on a PostgreSQL archiving its WAL with pgBackRest.');
    let started = Date.now();
    await backupCluster(settings, 'full');
    const backupMs = Date.now() - started;
    say(`Full backup taken (${backupMs} ms).`);

    const before = await transferPhase(bank, 2_000);
    await waitForQuiet(bank.pool, 30_000);
    await sleep(300);
    const { rows: instant } = await bank.pool.query<{ t: string }>(`SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' AS t`);
    const target = instant[0]!.t;
    say(`${before.length} transfers, then T = ${target}.`);
    await sleep(300);
    const after = await transferPhase(bank, 2_000);
    await waitForQuiet(bank.pool, 30_000);
    // Let the checkpoint writer sign a record that covers events after T (it writes one every second here).
    await sleep(2_500);
    await bank.bank.stop(20_000);
    say(`${after.length} more transfers after T; the bank stopped.`);

    const { rows: expected } = await bank.pool.query<{ all: string; upto: string; last: string | null }>(
      `SELECT count(*)::text AS all,
              count(*) FILTER (WHERE pg_xact_commit_timestamp(xmin) <= $1::timestamptz)::text AS upto,
              max(global_position) FILTER (WHERE pg_xact_commit_timestamp(xmin) <= $1::timestamptz)::text AS last
         FROM eventstore.events`,
      [target],
    );
    await checkArchive(settings);
    await bank.pool.end();
    await bank.postgres.kill();
    rmSync(bank.postgres.dataDir, { recursive: true, force: true });
    say(`The cluster is lost (${expected[0]!.all} events; ${expected[0]!.upto} committed by T, the last at position ${expected[0]!.last}).`);

    started = Date.now();
    await restoreToInstant(settings, target);
    await bank.postgres.start();
    pool = new pg.Pool({ connectionString: bank.databaseUrl, max: 3 });
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    for (;;) {
      const { rows } = await pool.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
      if (!rows[0]!.recovery) break;
      if (Date.now() - started > 120_000) throw new Error('The restored cluster did not leave recovery');
      await sleep(100);
    }
    const restoreMs = Date.now() - started;
    const { rows: restored } = await pool.query<{ n: string; last: string | null }>('SELECT count(*)::text AS n, max(global_position)::text AS last FROM eventstore.events');
    say(`Restored to T in ${restoreMs} ms: ${restored[0]!.n} events, the last at position ${restored[0]!.last}.`);

    // What the restore does not hold must not be believed: the checkpoints written after T move aside (kept for the
    // audit), and Redis (idempotency records of requests after T, queued jobs) starts empty.
    const checkpoints = path.join(bank.env.DATA_DIR!, 'checkpoints');
    const aside = path.join(bank.env.DATA_DIR!, `checkpoints-before-restore-${Date.now()}`);
    if (existsSync(checkpoints)) renameSync(checkpoints, aside);
    await bank.redis.stop();
    await bank.redis.start();
    await bank.restart();
    await waitForQuiet(pool, 60_000);
    say('The bank started on the restored cluster.');

    const rebuild = await runCli('projector/src/cli/rebuild.ts', [], bank.env);
    const audit = await runCli('services/api/src/cli/auditVerify.ts', ['--restored'], { ...bank.env, CHECKPOINT_DIR: path.join(aside, 'postgres-bank') });
    const trial = await call<{ data: { balanced: boolean; totalDebits: number; totalCredits: number } }>(bank.bank.baseUrl, 'GET', '/audit/ledger/trial-balance', { token: bank.admin });
    if (trial.status !== 200) throw new Error(`trial balance: ${trial.status} ${JSON.stringify(trial.body)}`);
    const { rows: money } = await pool.query<{ total: string }>('SELECT sum(savings_cents + checking_cents)::text AS total FROM rm.accounts');
    return {
      target,
      transfersBeforeT: before.length,
      transfersAfterT: after.length,
      eventsAtLoss: Number(expected[0]!.all),
      eventsCommittedByT: Number(expected[0]!.upto),
      lastPositionByT: expected[0]!.last ?? '',
      restoredEvents: Number(restored[0]!.n),
      restoredLastPosition: restored[0]!.last ?? '',
      backupMs,
      restoreMs,
      auditExitCode: audit.code,
      auditOutput: audit.code === 0 ? audit.output : `${audit.output}\n${describeCheckpointFiles(aside, bank.env.DATA_DIR!)}`,
      rebuildExitCode: rebuild.code,
      rebuildOutput: rebuild.output,
      trialBalance: { balanced: trial.body.data.balanced, totalDebits: trial.body.data.totalDebits, totalCredits: trial.body.data.totalCredits },
      moneyCents: money[0]!.total,
      expectedMoneyCents: String(bank.customers.length * INITIAL_DOLLARS * 100),
    };
  } finally {
    await pool?.end().catch(() => undefined);
    await fx?.destroy();
    rmSync(drillDir, { recursive: true, force: true });
  }
}

/**
 * For a drill whose audit failed: every checkpoint file under `aside` (each file's records, by their `seq`) and the
 * bank's log lines that speak of checkpoints, so that the failure says what the files held.
 */
function describeCheckpointFiles(aside: string, dataDir: string): string {
  const lines: string[] = ['Checkpoint files moved aside:'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const seqs = readFileSync(full, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => /"seq":(\d+)/.exec(line)?.[1] ?? '?');
        lines.push(`  ${path.relative(aside, full)}: records ${seqs.join(', ')}`);
      }
    }
  };
  walk(aside);
  for (const name of readdirSync(dataDir).filter((file) => file.startsWith('bank-') && file.endsWith('.log'))) {
    const mentions = readFileSync(path.join(dataDir, name), 'utf8')
      .split('\n')
      .filter((line) => /checkpoint/i.test(line));
    lines.push(`  ${name}: ${mentions.length} log lines about checkpoints`, ...mentions.slice(0, 20).map((line) => `    ${line.slice(0, 400)}`));
  }
  return lines.join('\n');
}

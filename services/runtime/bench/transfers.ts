/**
 * `npm run bench` (`-- --quick` for a run under two minutes): internal transfers over HTTP against the bank started
 * in the shape the README recommends for production on one machine, on a fresh database of its own.
 *
 *   1. signs up customers (over HTTP), funds them and sets their payment pins (as an admin, over HTTP);
 *   2. drives $1 transfers between random customers at 1, 8 and 32 in flight for a fixed time each, timing every
 *      201; completion (the payee's credit applied to the read models) and projection lag come from the
 *      projector's checkpoint notifications, timed in a thread of their own;
 *   3. checks the result: every 201 transfer credited, money conserved, the read models equal to the replay;
 *   4. rebuilds the read models from the log (events/s), and runs pgbench's TPC-B-like script at 16 clients on the
 *      same PostgreSQL server for the same time, as the reference;
 *   5. runs the transfer's floor (bench/floor/transferFloor.sql: every write of an internal transfer in one SQL
 *      transaction, pgbench at 32 clients on the bench's database) and checks what it wrote: floorTps, and
 *      floorRatio = transfers/s at 32 in flight ÷ floorTps;
 *   6. writes docs/benchmarks.md (its own section) and prints one JSON object as its last line.
 *
 * `--standing-orders N` also creates N standing orders while the measured phases run (half paid as they are
 * created, half waiting for the runner, which then looks at them every second) and checks that each one due today
 * was paid exactly once. `BENCH_LOG_LEVEL=debug` runs the bank with its request lines in its log (warn otherwise).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createEventStore } from '@bank/eventstore';
import { parseConfig } from '@bank/platform';
import { verifyReadModels } from '@bank/projector';
import { profiled, startBank } from './lib/bankProcess';
import { BENCH_SERVER_URL, createBenchDatabase, dropBenchDatabase, waitForQuiet, writeBenchSection } from './lib/benchDatabase';
import { setUpCustomers } from './lib/benchCustomers';
import { checkTimeline, reachedAt, startCheckpointTimeline } from './lib/checkpointTimeline';
import { runPgbench } from './lib/pgbench';
import { sampleTreeRss } from './lib/processTree';
import { loadAverage, percentile, round } from './lib/stats';
import { runTransferPhase, type LoadPhase } from './lib/transferLoad';
import { freshBankKeys } from './lib/bankSecrets';
import { signInStaff } from './lib/staffSignIn';
import { checkStandingOrders, createStandingOrders } from './lib/benchStandingOrders';
import { freeTcpPort, startPrivateRedis } from '@bank/testkit';
import { runTransferFloor, type FloorResult } from './lib/transferFloor';
import { startWorkCount, type WorkCount } from './lib/workCounters';

const execFileAsync = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** How long each phase's count goes on after its last transfer was answered (its tail of work, see below). */
const SETTLE_MS = 3_000;

/** Messages of the mail outbox not yet sent. */
async function queuedNotices(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM mail.messages WHERE status = 'queued'`);
  return Number(rows[0]!.n);
}

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    customers: { type: 'string' },
    seconds: { type: 'string' },
    levels: { type: 'string', default: '1,8,32' },
    start: { type: 'string' },
    cwd: { type: 'string' },
    profile: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
    'no-pgbench': { type: 'boolean', default: false },
    'no-rebuild': { type: 'boolean', default: false },
    'no-floor': { type: 'boolean', default: false },
    label: { type: 'string' },
    'standing-orders': { type: 'string' },
  },
});

const quick = args.quick ?? false;
const customerCount = Number(args.customers ?? (quick ? 100 : 1000));
const phaseSeconds = Number(args.seconds ?? (quick ? 8 : 30));
const levels = (args.levels ?? '1,8,32').split(',').map(Number);
const startCommand = args.start ?? process.env.BENCH_START ?? 'node --max-semi-space-size=64 --import tsx services/runtime/src/main.ts';
const bankCwd = path.resolve(args.cwd ?? repoRoot);
const INITIAL_CHECKING_DOLLARS = 1_000_000;
// Standing orders created while the measured phases run (half paid at once, half left for the runner's ticks, which
// then come every second instead of every minute): the bench's figures with the runner at work.
const standingOrderCount = Number(args['standing-orders'] ?? 0);

/** An idle pooled connection ended by the server (e.g. another job terminating backends on a shared server) must not end the run. */
function ignoreIdleError(): void {}

function log(message: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

interface PhaseReport {
  readonly inFlight: number;
  readonly transfers: number;
  readonly transfersPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly completionP50Ms: number;
  readonly completionP99Ms: number;
  readonly failures: Record<string, number>;
  readonly pendingAnswers: number;
}

interface CreditRow {
  transfer_id: string;
  transaction_id: string;
  global_position: string;
}

function formatted(xid: string, position: string): string {
  return `${xid.padStart(20, '0')}:${position.padStart(20, '0')}`;
}

async function main(): Promise<void> {
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const { name: database, url: databaseUrl } = await createBenchDatabase(`bank_bench_${runId}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bank-bench-'));
  const logFile = path.join(dataDir, 'bank.log');
  const port = await freeTcpPort();
  // A Redis of the bench's own, so that its commands can be counted (INFO commandstats).
  const redis = await startPrivateRedis();
  const server = new pg.Pool({ connectionString: BENCH_SERVER_URL, max: 1 });
  server.on('error', ignoreIdleError);
  const adminEmail = `bench-admin-${runId}@bank.example`;
  const adminPassword = `bench-admin-${randomBytes(8).toString('hex')}`;
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    ...freshBankKeys(),
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `bench-${runId}:`,
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: adminPassword,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    RATE_LIMIT_SIGNUPS: '1000000',
    // Set-up sign-ups hash passwords and pins many at once: slower than the production deadline on 2 cores.
    REQUEST_DEADLINE_MS: '60000',
    RATE_LIMIT_LOOKUPS: '1000000',
  };
  if (args.profile) mkdirSync(path.resolve(args.profile), { recursive: true });

  const command = args.profile ? profiled(startCommand, path.resolve(args.profile)) : startCommand;
  log(`database ${database}; starting the bank: ${command} (in ${bankCwd})`);
  const bank = await startBank({ command, cwd: bankCwd, env, port, logFile });
  const rss = sampleTreeRss(bank.child.pid!);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  pool.on('error', ignoreIdleError);
  let timeline: Awaited<ReturnType<typeof startCheckpointTimeline>> | undefined;
  try {
    const adminToken = await signInStaff(bank.baseUrl, adminEmail, adminPassword);
    const customers = await setUpCustomers({ baseUrl: bank.baseUrl, adminToken, runId, count: customerCount, checkingDollars: INITIAL_CHECKING_DOLLARS, log });
    await waitForQuiet(pool, 60_000);
    const { rows: before } = await pool.query<{ total: string }>('SELECT coalesce(sum(savings_cents + checking_cents), 0)::text AS total FROM rm.accounts');

    timeline = await startCheckpointTimeline({ url: databaseUrl });
    log('warming up (3 s at 8 in flight)');
    await runTransferPhase(bank.baseUrl, customers, 8, 3);
    const { rows: startRows } = await pool.query<{ max: string | null }>('SELECT max(global_position)::text AS max FROM eventstore.events');
    const firstMeasuredPosition = BigInt(startRows[0]!.max ?? '0');

    const ordersCreated =
      standingOrderCount > 0
        ? createStandingOrders(bank.baseUrl, customers, standingOrderCount).then((orders) => {
            log(`created ${standingOrderCount} standing orders during the load (${orders.dueToday.length} paid today, ${orders.waiting} for the close of business of their date)`);
            return orders;
          })
        : undefined;
    const phases: LoadPhase[] = [];
    const work = new Map<number, WorkCount>();
    for (const inFlight of levels) {
      log(`${inFlight} in flight for ${phaseSeconds} s (load ${await loadAverage()})`);
      const counting = await startWorkCount({ server, database, redisPort: redis.port, bankPid: bank.child.pid! });
      phases.push(await runTransferPhase(bank.baseUrl, customers, inFlight, phaseSeconds));
      // The work a phase starts goes on after it (the projector's last batches, the notices sent): counted for
      // SETTLE_MS more, as bench:work counts it, waiting without touching the database; then a look at the outbox.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      work.set(inFlight, await counting.stop());
      const queued = await queuedNotices(pool);
      if (queued > 0) log(`${queued} notices still queued ${SETTLE_MS / 1000} s after ${inFlight} in flight: that count leaves their sending out`);
    }
    const orders = await ordersCreated;
    const loadAfterTransfers = await loadAverage();
    const quietMs = await waitForQuiet(pool, 120_000);
    log(`every balance final ${quietMs} ms after the load stopped`);
    const entries = await timeline.entries();
    await timeline.stop();
    timeline = undefined;

    // Completion: when the checkpoint passed each transfer's payee credit.
    const phaseTransferIds = phases.flatMap((phase) => phase.samples.flatMap((s) => (s.status === 201 && s.transferId ? [s.transferId] : [])));
    const transferIds = [...phaseTransferIds, ...(orders?.transferIds ?? [])];
    const { rows: credits } = await pool.query<CreditRow & { xid: string }>(
      `SELECT data->>'transferId' AS transfer_id, transaction_id::text AS xid, global_position::text AS global_position
         FROM eventstore.events WHERE type = 'AccountCredited' AND global_position > $1 AND data->>'transferId' = ANY($2::text[])`,
      [firstMeasuredPosition.toString(), phaseTransferIds],
    );
    const creditAt = new Map(credits.map((row) => [row.transfer_id, reachedAt(entries, formatted(row.xid, row.global_position))]));

    // Lag: from each event's commit (its `created`) to the checkpoint passing it.
    const { rows: lagRows } = await pool.query<{ xid: string; global_position: string; created_ms: string }>(
      `SELECT transaction_id::text AS xid, global_position::text AS global_position, (extract(epoch from created) * 1000)::text AS created_ms
         FROM eventstore.events WHERE global_position > $1`,
      [firstMeasuredPosition.toString()],
    );
    const rawLags = lagRows.flatMap((row) => {
      const at = reachedAt(entries, formatted(row.xid, row.global_position));
      return at === undefined ? [] : [at - Number(row.created_ms)];
    });
    // A checkpoint cannot pass an event before its transaction began: a time before it means the timeline is wrong
    // (out of order, or a clock that moved), and the bench says so instead of printing a lag of 0.
    const lags = rawLags.map((lag) => Math.max(0, lag));
    const timelineProblems = checkTimeline(entries, rawLags, lagRows.length);
    for (const problem of timelineProblems) log(`projection lag: ${problem}`);

    const reports: PhaseReport[] = phases.map((phase) => {
      const ok = phase.samples.filter((s) => s.status === 201);
      const failures: Record<string, number> = {};
      for (const s of phase.samples) if (s.status !== 201) failures[`${s.status} ${s.message ?? ''}`.trim()] = (failures[`${s.status} ${s.message ?? ''}`.trim()] ?? 0) + 1;
      const completions = ok.flatMap((s) => {
        const at = s.transferId ? creditAt.get(s.transferId) : undefined;
        return at === undefined ? [] : [at - s.startedAt];
      });
      return {
        inFlight: phase.inFlight,
        transfers: ok.length,
        transfersPerSecond: round(ok.length / phase.seconds),
        p50Ms: round(percentile(ok.map((s) => s.ms), 50)),
        p99Ms: round(percentile(ok.map((s) => s.ms), 99)),
        completionP50Ms: round(percentile(completions, 50)),
        completionP99Ms: round(percentile(completions, 99)),
        failures,
        pendingAnswers: ok.filter((s) => s.debitStatus !== 'completed').length,
      };
    });

    // Checks: every 201 credited, money conserved, the read models equal to the replay.
    const { rows: open } = await pool.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM unnest($1::uuid[]) AS t(id) LEFT JOIN rm.transfers tr ON tr.id = t.id WHERE tr.status IS DISTINCT FROM 'credited'`,
      [transferIds],
    );
    const { rows: after } = await pool.query<{ total: string }>('SELECT coalesce(sum(savings_cents + checking_cents), 0)::text AS total FROM rm.accounts');
    const { rows: trial } = await pool.query<{ net: string }>('SELECT coalesce(sum(debits_cents - credits_cents), 0)::text AS net FROM rm.ledger_accounts');
    const store = await createEventStore(parseConfig({ DATABASE_URL: databaseUrl, NODE_ENV: 'test' }), { pool });
    const verified = await verifyReadModels({ pool, store });
    await store.close();
    const moneyConserved = before[0]!.total === after[0]!.total;
    const allCredited = open[0]!.n === '0';
    const orderProblems = orders ? await checkStandingOrders(bank.baseUrl, orders) : [];
    if (orders && orders.transferIds.length !== orders.dueToday.length) orderProblems.push(`${orders.dueToday.length - orders.transferIds.length} standing orders due today show no payment`);
    const problems = [
      ...orderProblems,
      ...(moneyConserved ? [] : [`money not conserved: ${before[0]!.total} → ${after[0]!.total} cents`]),
      ...(allCredited ? [] : [`${open[0]!.n} transfers answered 201 but not credited`]),
      ...(verified.ok ? [] : [`${verified.mismatches.length} read-model mismatches with the replay`]),
      ...(trial[0]!.net === '0' ? [] : [`trial balance ${trial[0]!.net} cents, not zero`]),
      ...timelineProblems,
    ];
    const peakRssMb = round(rss.peakBytes() / 1024 / 1024, 0);
    rss.stop();
    await bank.stop();

    let rebuildEventsPerSecond: number | undefined;
    if (!args['no-rebuild']) {
      log('rebuilding the read models from the log');
      const started = performance.now();
      const { stdout } = await execFileAsync('npx', ['tsx', 'projector/src/cli/rebuild.ts'], {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'test', LOG_LEVEL: 'warn' },
        maxBuffer: 16 * 1024 * 1024,
      });
      const seconds = (performance.now() - started) / 1000;
      const match = /\(([\d.]+) events\/s[:)]/.exec(stdout);
      // A figure the bench cannot read is a failed run, not a blank in the table.
      if (!match) throw new Error(`The rebuild printed no events/s figure: ${stdout.trim()}`);
      rebuildEventsPerSecond = Number(match[1]);
      log(`rebuild: ${stdout.trim()} (${seconds.toFixed(1)} s with start-up)`);
    }

    let pgbenchTps: number | undefined;
    if (!args['no-pgbench']) {
      log(`pgbench TPC-B-like at 16 clients for ${phaseSeconds} s (load ${await loadAverage()})`);
      const url = new URL(BENCH_SERVER_URL);
      pgbenchTps = round(await runPgbench({ host: url.hostname, port: Number(url.port || 5432), user: decodeURIComponent(url.username || 'postgres'), seconds: phaseSeconds }));
    }

    let floor: FloorResult | undefined;
    let floorLoad: string | undefined;
    if (!args['no-floor']) {
      log(`the transfer's floor: pgbench at 32 clients on this database for ${phaseSeconds} s (load ${await loadAverage()})`);
      await pool.end();
      floor = await runTransferFloor({ databaseUrl, seconds: phaseSeconds, clients: 32 });
      problems.push(...floor.problems);
      floorLoad = await loadAverage();
      log(`floor: ${floor.tps.toFixed(1)} transfers/s (${floor.transactions} in ${phaseSeconds} s over ${floor.customers} customers; load ${floorLoad})`);
    }

    const top = reports.find((r) => r.inFlight === 32) ?? reports.at(-1)!;
    const topWork = work.get(top.inFlight);
    const perTransfer = (n: number) => (top.transfers > 0 ? round(n / top.transfers, 2) : null);
    const at8 = reports.find((r) => r.inFlight === 8) ?? top;
    const summary = {
      label: args.label ?? (quick ? 'quick' : 'full'),
      customers: customerCount,
      phaseSeconds,
      transfersPerSecond: top.transfersPerSecond,
      pgbenchTps: pgbenchTps ?? null,
      ratio: pgbenchTps ? round(top.transfersPerSecond / pgbenchTps, 3) : null,
      floorTps: floor ? round(floor.tps) : null,
      floorRatio: floor ? round(top.transfersPerSecond / floor.tps, 3) : null,
      floorLoad: floorLoad ?? null,
      work: topWork
        ? { inFlight: top.inFlight, pgTransactionsPerTransfer: perTransfer(topWork.pgTransactions), redisCommandsPerTransfer: perTransfer(topWork.redisCommands), bankCpuMsPerTransfer: perTransfer(topWork.bankCpuMs), postgresCpuMsPerTransfer: perTransfer(topWork.postgresCpuMs) }
        : null,
      p99Ms: at8.p99Ms,
      completionP99Ms: at8.completionP99Ms,
      lagP50Ms: round(percentile(lags, 50)),
      lagP99Ms: round(percentile(lags, 99)),
      lagEvents: lags.length,
      rebuildEventsPerSecond: rebuildEventsPerSecond ?? null,
      peakRssMb,
      finalAfterLoadMs: quietMs,
      verified: problems.length === 0,
      problems,
      load: loadAfterTransfers,
      standingOrders: orders ? { created: standingOrderCount, paidToday: orders.transferIds.length, waiting: orders.waiting } : null,
      levels: reports,
    };
    printTable(reports, summary);
    if (!args['no-write']) writeReport(summary);
    console.log(JSON.stringify(summary));
    if (problems.length > 0) process.exitCode = 2;
  } finally {
    if (timeline) await timeline.stop().catch(() => undefined);
    rss.stop();
    await pool.end().catch(() => undefined);
    await server.end().catch(() => undefined);
    await bank.stop();
    await redis.destroy();
    if (!process.env.BENCH_KEEP_DATABASE) await dropBenchDatabase(database);
    log(`bank log: ${logFile}`);
  }
}

type Summary = Record<string, unknown> & { levels: PhaseReport[] };

function printTable(reports: readonly PhaseReport[], summary: Summary): void {
  console.log('\n| in flight | transfers/s | p50 (201) | p99 (201) | completion p50 | completion p99 | not 201 | 201 still pending |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of reports) {
    const failed = Object.values(r.failures).reduce((a, b) => a + b, 0);
    console.log(`| ${r.inFlight} | ${r.transfersPerSecond} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.completionP50Ms} ms | ${r.completionP99Ms} ms | ${failed} | ${r.pendingAnswers} |`);
  }
  console.log(
    `\npgbench ${summary.pgbenchTps} tps, ratio ${summary.ratio}; floor ${summary.floorTps} transfers/s (load ${summary.floorLoad}), floorRatio ${summary.floorRatio}; ${workLine(summary)}; projection lag p99 ${summary.lagP99Ms} ms; rebuild ${summary.rebuildEventsPerSecond} events/s; ` +
      `peak RSS ${summary.peakRssMb} MB; load ${summary.load}; verified ${summary.verified}.${standingOrdersLine(summary)}\n`,
  );
}

function workLine(summary: Summary): string {
  const work = summary.work as { inFlight: number; pgTransactionsPerTransfer: number; redisCommandsPerTransfer: number; bankCpuMsPerTransfer: number; postgresCpuMsPerTransfer: number } | null;
  return work
    ? `work per transfer at ${work.inFlight} in flight: ${work.pgTransactionsPerTransfer} PostgreSQL transactions, ${work.redisCommandsPerTransfer} Redis commands, ${work.bankCpuMsPerTransfer} ms of bank CPU, ${work.postgresCpuMsPerTransfer} ms of PostgreSQL CPU`
    : 'work not counted';
}

function standingOrdersLine(summary: Summary): string {
  const orders = summary.standingOrders as { created: number; paidToday: number; waiting: number; tickMs: number } | null;
  return orders
    ? ` With standing orders running: ${orders.created} created during the phases (${orders.paidToday} paid as created, ${orders.waiting} waiting), the runner ticking every ${orders.tickMs} ms.`
    : '';
}

function writeReport(summary: Summary): void {
  const rows = summary.levels
    .map((r) => `| ${r.inFlight} | ${r.transfersPerSecond} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.completionP50Ms} ms | ${r.completionP99Ms} ms | ${Object.values(r.failures).reduce((a, b) => a + b, 0)} |`)
    .join('\n');
  writeBenchSection(
    repoRoot,
    'transfers',
    `## Transfers over HTTP (\`npm run bench\`)

Last run: ${new Date().toISOString()} (${summary.label}), ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB,
load average after the transfer phases ${summary.load}; ${summary.customers} customers, ${summary.phaseSeconds} s per level, bank started with
\`${startCommand}\`.

| in flight | transfers/s | p50 (201) | p99 (201) | completion p50 | completion p99 | not 201 |
|---|---|---|---|---|---|---|
${rows}

pgbench TPC-B-like, 16 clients, same server, same time: **${summary.pgbenchTps} tps**; ratio (32 in flight ÷ pgbench):
**${summary.ratio}**. The transfer's floor (\`services/runtime/bench/floor/transferFloor.sql\`: every write of an internal
transfer in one SQL transaction, pgbench at 32 clients on the bench's database, after the bank stopped):
**${summary.floorTps} transfers/s** (load average after it ${summary.floorLoad}); floorRatio (32 in flight ÷ floor): **${summary.floorRatio}**. The ${workLine(summary)}
(bank: the whole bank, request, transfer process, projector, worker; PostgreSQL: the backends of the bench's database,
and those that ended during the phase; counted over the phase, background included).
Projection lag p99 ${summary.lagP99Ms} ms; every balance final ${summary.finalAfterLoadMs} ms after the load
stopped; rebuild of everything appended ${summary.rebuildEventsPerSecond} events/s; peak RSS of the bank's processes
${summary.peakRssMb} MB.${standingOrdersLine(summary)} Checked: ${summary.verified ? 'every 201 credited, money conserved, read models equal to the replay, the trial balance zero, the lag timeline in order' : `FAILED: ${(summary.problems as string[]).join('; ')}`}.

Reproduce: \`npm run bench\` (or \`npm run bench -- --quick\`, under two minutes; \`--standing-orders N\` to run N standing
orders meanwhile) on a machine with PostgreSQL and Redis on localhost; it creates and drops a database of its own.`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});


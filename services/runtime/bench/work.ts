/**
 * `npm run bench:work [-- --transfers 200 --in-flight 1 --warm-up 0 --statements]`: the work one internal transfer costs,
 * counted rather than timed (so it means the same on a busy machine): PostgreSQL transactions (pg_stat_database of
 * the bench's own database), Redis commands (a private redis-server, INFO commandstats; with --monitor also by what
 * they serve: the request path's idempotency records and wrong-pin limit, each BullMQ queue), the read models' rows
 * read by sequential scans (pg_stat_user_tables of schema rm), and with --statements the
 * bank's SQL statements by kind (log_statement on the bench database, read back from the server log).
 *
 * The count covers everything the transfers cause until the bank is quiet again: the request, the transfer
 * process, the projector and the worker. The load's own polling is excluded (it runs on no connection to the
 * bench database while counting). Checks: every transfer answered 201 and was credited, money conserved.
 * --profile DIR writes the bank's V8 CPU profiles there (read them with bench/summarizeProfile.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freeTcpPort, startPrivateRedis } from '@bank/testkit';
import { profiled, startBank } from './lib/bankProcess';
import { setUpCustomers } from './lib/benchCustomers';
import { BENCH_SERVER_URL, createBenchDatabase, dropBenchDatabase, waitForQuiet } from './lib/benchDatabase';
import { cpuMsOf, pidsWithCommandLine, processTree } from './lib/processTree';
import { round } from './lib/stats';
import { freshBankKeys } from './lib/bankSecrets';
import { signInStaff } from './lib/staffSignIn';
import type { BenchCustomer } from './lib/bankClient';
import { transferOnce, type TransferSample } from './lib/transferLoad';
import { commandDifference as difference, monitorRedis, readModelScanRows, redisCommandCounts, startPostgresCpu, xactCommits } from './lib/workCounters';

const { values: args } = parseArgs({
  options: {
    transfers: { type: 'string', default: '200' },
    'in-flight': { type: 'string', default: '1' },
    customers: { type: 'string', default: '8' },
    'warm-up': { type: 'string', default: '0' },
    statements: { type: 'boolean', default: false },
    monitor: { type: 'boolean', default: false },
    start: { type: 'string' },
    profile: { type: 'string' },
    'pg-log': { type: 'string', default: '/var/log/postgresql/postgresql-15-main.log' },
  },
});
const transferCount = Number(args.transfers);
const warmUpCount = Number(args['warm-up']);
const inFlight = Number(args['in-flight']);
const startCommand = args.start ?? process.env.BENCH_START ?? 'node --max-semi-space-size=64 --import tsx services/runtime/src/main.ts';
const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** An idle pooled connection ended by the server (e.g. another job terminating backends on a shared server) must not end the run. */
function ignoreIdleError(): void {}

function log(message: string): void {
  console.log(`[bench:work ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/** The statements the server log shows for `database` after byte `from`, by normalised text. */
function statementsByKind(logFile: string, from: number, database: string): Map<string, number> {
  const text = readFileSync(logFile).subarray(from).toString('utf8');
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.includes(`@${database} `)) continue;
    const match = /LOG:\s+(?:execute [^:]*|statement): (.*)$/.exec(line);
    if (!match) continue;
    const kind = match[1]!
      .replace(/\$\d+/g, '?')
      .replace(/'[^']*'/g, "'…'")
      .replace(/\s+/g, ' ')
      .slice(0, 110);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

/** `count` transfers, `inFlight` at a time, each payer paying the customers after it in turn. */
async function runTransfers(baseUrl: string, customers: readonly BenchCustomer[], count: number, inFlight: number): Promise<TransferSample[]> {
  const samples: TransferSample[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const index = next++;
        const payer = customers[index % customers.length]!;
        const payee = customers[(index + 1 + Math.floor(index / customers.length)) % customers.length]!;
        samples.push(await transferOnce(baseUrl, payer, payee === payer ? customers[(index + 2) % customers.length]! : payee));
      }
    }),
  );
  return samples;
}

async function main(): Promise<void> {
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const { name: database, url: databaseUrl } = await createBenchDatabase(`bank_work_${runId}`);
  const server = new pg.Pool({ connectionString: BENCH_SERVER_URL, max: 1 });
  server.on('error', ignoreIdleError);
  const redis = await startPrivateRedis();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bank-work-'));
  const port = await freeTcpPort();
  const adminEmail = `work-admin-${runId}@bank.example`;
  const adminPassword = `work-admin-${randomBytes(8).toString('hex')}`;
  const logStatements = args.statements && existsSync(args['pg-log']);
  if (args.statements && !logStatements) log(`--statements: cannot read ${args['pg-log']}; counting transactions only`);
  if (args.profile) mkdirSync(path.resolve(args.profile), { recursive: true });
  const bankOptions = {
    command: args.profile ? profiled(startCommand, path.resolve(args.profile)) : startCommand,
    cwd: repoRoot,
    port,
    logFile: path.join(dataDir, 'bank.log'),
    env: {
      NODE_ENV: 'production',
      ...freshBankKeys(),
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SIGNUPS: '1000000',
      // Set-up sign-ups hash passwords and pins many at once: slower than the production deadline on 2 cores.
      REQUEST_DEADLINE_MS: '60000',
    },
  };
  let bank = await startBank(bankOptions);
  try {
    const admin = await signInStaff(bank.baseUrl, adminEmail, adminPassword);
    const customers = await setUpCustomers({ baseUrl: bank.baseUrl, adminToken: admin, runId, count: Number(args.customers), checkingDollars: 1_000_000, log });
    let pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    pool.on('error', ignoreIdleError);
    await waitForQuiet(pool, 60_000);
    if (logStatements) {
      // Statements are logged from here on: the bank starts again so that every connection it opens logs them
      // (the set-up ran without, as it is slow enough already).
      await pool.end();
      await bank.stop();
      await server.query(`ALTER DATABASE ${database} SET log_statement = 'all'`);
      bank = await startBank(bankOptions);
      pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      pool.on('error', ignoreIdleError);
    }
    // Warm the caches (customer and account states) so that the count is the steady state.
    for (const payer of customers) await transferOnce(bank.baseUrl, payer, customers[(customers.indexOf(payer) + 1) % customers.length]!);
    // --warm-up N: N more transfers at the counted concurrency, not counted, so that V8 has compiled the hot paths
    // (a bank runs for days: its start-up compilation is no transfer's cost). Without it the count includes that.
    if (warmUpCount > 0) {
      const warmUp = await runTransfers(bank.baseUrl, customers, warmUpCount, inFlight);
      const refused = warmUp.filter((sample) => sample.status !== 201).length;
      if (refused > 0) throw new Error(`${refused} of the ${warmUpCount} warm-up transfers were not answered 201`);
      log(`warmed up with ${warmUpCount} transfers at ${inFlight} in flight`);
    }
    await waitForQuiet(pool, 60_000);
    const { rows: before } = await pool.query<{ total: string }>('SELECT sum(savings_cents + checking_cents)::text AS total FROM rm.accounts');
    const scanRowsBefore = await readModelScanRows(pool);
    await pool.end();
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    // The bank's background work (polls, leader locks, gauges) while idle, to take out of the count.
    const idleStart = await xactCommits(server, database);
    const idleStarted = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const idlePerMs = ((await xactCommits(server, database)) - idleStart) / (performance.now() - idleStarted);

    // CPU: the bank's processes, the PostgreSQL backends serving its database, the private Redis, this load client.
    const cpuGroups = {
      bank: processTree(bank.child.pid!),
      redis: pidsWithCommandLine(`redis-server 127.0.0.1:${redis.port}`),
    };
    const cpuOf = () => Object.fromEntries(Object.entries(cpuGroups).map(([name, pids]) => [name, pids.reduce((sum, pid) => sum + cpuMsOf(pid), 0)]));
    const postgresCpu = await startPostgresCpu(server, database);
    const cpuBefore = cpuOf();
    const clientBefore = process.cpuUsage();
    const logFrom = logStatements ? statSync(args['pg-log']).size : 0;
    const xactBefore = await xactCommits(server, database);
    const countStarted = performance.now();
    const redisBefore = await redisCommandCounts(redis.port);
    const monitor = args.monitor ? monitorRedis(redis.port) : undefined;
    const samples = await runTransfers(bank.baseUrl, customers, transferCount, inFlight);
    // Until the bank is quiet: counted by waiting without touching the database, then checking once.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const cpuAfter = cpuOf();
    const postgresMs = await postgresCpu.stop();
    const client = process.cpuUsage(clientBefore);
    const cpuPerTransfer = {
      bank: round((cpuAfter.bank! - cpuBefore.bank!) / transferCount, 3),
      postgres: round(postgresMs / transferCount, 3),
      redis: round((cpuAfter.redis! - cpuBefore.redis!) / transferCount, 3),
      client: round((client.user + client.system) / 1000 / transferCount, 3),
    };
    const xactAfter = await xactCommits(server, database);
    const background = idlePerMs * (performance.now() - countStarted);
    const byOwner = await monitor?.stop();
    const redisAfter = await redisCommandCounts(redis.port);
    const statements = logStatements ? statementsByKind(args['pg-log'], logFrom, database) : new Map<string, number>();

    const check = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    check.on('error', ignoreIdleError);
    // Before the checks' own reads (waitForQuiet counts the open transfers); the backends flushed their table
    // statistics in the quiet wait above (PostgreSQL flushes an idle backend's within a second or so).
    const scanRows = (await readModelScanRows(check)) - scanRowsBefore;
    await waitForQuiet(check, 60_000);
    const { rows: after } = await check.query<{ total: string }>('SELECT sum(savings_cents + checking_cents)::text AS total FROM rm.accounts');
    const ids = samples.flatMap((s) => (s.transferId ? [s.transferId] : []));
    const { rows: credited } = await check.query<{ n: string }>("SELECT count(*)::text AS n FROM rm.transfers WHERE id = ANY($1::uuid[]) AND status = 'credited'", [ids]);
    await check.end();
    const ok = samples.filter((s) => s.status === 201).length;
    const problems = [
      ...(ok === transferCount ? [] : [`${transferCount - ok} transfers not answered 201`]),
      ...(Number(credited[0]!.n) === ok ? [] : [`${ok - Number(credited[0]!.n)} answered 201 but not credited`]),
      ...(before[0]!.total === after[0]!.total ? [] : [`money not conserved: ${before[0]!.total} → ${after[0]!.total}`]),
    ];

    const per = (n: number) => round(n / transferCount, 2);
    const redisTotal = [...difference(redisAfter, redisBefore).values()].reduce((a, b) => a + b, 0);
    console.log(`\n${transferCount} transfers at ${inFlight} in flight`);
    console.log(`PostgreSQL transactions per transfer: ${per(xactAfter - xactBefore - background)} (${per(xactAfter - xactBefore)} with the idle background of ${round(idlePerMs * 1000, 1)}/s taken out)`);
    console.log(`CPU ms per transfer: ${Object.entries(cpuPerTransfer).map(([name, ms]) => `${name} ${ms}`).join(', ')} (bank: every process of it; postgres: the backends of its database, and any that ended during the count; redis: the private server)`);
    console.log(`Read-model rows read by sequential scans per transfer: ${per(scanRows)} (pg_stat_user_tables of schema rm: a statement that probes its keys reads none)`);
    console.log(`Redis commands per transfer: ${per(redisTotal)} (INFO commandstats: a script counts once as evalsha and once per command it runs)`);
    for (const [name, calls] of [...difference(redisAfter, redisBefore)].filter(([, n]) => n / transferCount >= 0.01).sort((a, b) => b[1] - a[1])) console.log(`  ${per(calls).toString().padStart(6)}  ${name}`);
    if (byOwner) {
      console.log('Redis commands per transfer by what they serve (MONITOR, by key):');
      for (const [owner, calls] of [...byOwner].sort((a, b) => b[1] - a[1])) console.log(`  ${per(calls).toString().padStart(6)}  ${owner}`);
    }
    if (logStatements) {
      const total = [...statements.values()].reduce((a, b) => a + b, 0);
      console.log(`SQL statements per transfer: ${per(total)}`);
      for (const [kind, calls] of [...statements].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${per(calls).toString().padStart(6)}  ${kind}`);
    }
    console.log(problems.length ? `problems: ${problems.join('; ')}` : 'verified: every transfer 201 and credited, money conserved');
    console.log(JSON.stringify({ transfers: transferCount, inFlight, pgTransactionsPerTransfer: per(xactAfter - xactBefore - background), redisCommandsPerTransfer: per(redisTotal), readModelScanRowsPerTransfer: per(scanRows), cpuMsPerTransfer: cpuPerTransfer, verified: problems.length === 0, problems }));
    if (problems.length) process.exitCode = 2;
  } finally {
    await bank.stop();
    if (logStatements) await server.query(`ALTER DATABASE ${database} RESET log_statement`).catch(() => undefined);
    await server.end();
    await redis.destroy();
    await dropBenchDatabase(database);
  }
}

await main();

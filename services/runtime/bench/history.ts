/**
 * `npm run bench:history` (`-- --quick` for a shorter run): what a long history and a hot account cost, over HTTP,
 * against the bank started as `npm run bench` starts it, on a fresh database of its own.
 *
 *   1. a transfer's latency from a payer with no history (one at a time);
 *   2. 8 concurrent staff postings to one account until it holds HISTORY events (10,000): 409s counted, throughput;
 *   3. a transfer's latency from that payer (one at a time), and the ratio to 1;
 *   4. 64 payers paying one merchant at 32 in flight: 409s and 5xx counted, and how long after the load stops
 *      every balance is final;
 *   5. checks: every 201 credited, money conserved, the read models equal to the replay.
 * Writes its section of docs/benchmarks.md and prints one JSON object as its last line.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createEventStore } from '@bank/eventstore';
import { parseConfig } from '@bank/platform';
import { verifyReadModels } from '@bank/projector';
import { startBank } from './lib/bankProcess';
import { BENCH_PIN, call, expectStatus, mapLimit, signUpCustomer, type BenchCustomer } from './lib/bankClient';
import { createBenchDatabase, dropBenchDatabase, waitForQuiet, writeBenchSection } from './lib/benchDatabase';
import { loadAverage, percentile, round } from './lib/stats';
import { freshBankKeys } from './lib/bankSecrets';
import { signInStaff } from './lib/staffSignIn';
import { transferOnce, type TransferSample } from './lib/transferLoad';
import { freeTcpPort } from '@bank/testkit';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    history: { type: 'string' },
    seconds: { type: 'string' },
    start: { type: 'string' },
    cwd: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const quick = args.quick ?? false;
const historyEvents = Number(args.history ?? (quick ? 2_000 : 10_000));
const seconds = Number(args.seconds ?? (quick ? 5 : 15));
const startCommand = args.start ?? process.env.BENCH_START ?? 'node --max-semi-space-size=64 --import tsx services/runtime/src/main.ts';
const PAYERS = 64;

function log(message: string): void {
  console.log(`[bench:history ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

/** Transfers of $1 from `payer` to random payees, one at a time, for `secondsFor`. */
async function serialTransfers(baseUrl: string, payer: BenchCustomer, payees: readonly BenchCustomer[], secondsFor: number): Promise<TransferSample[]> {
  const samples: TransferSample[] = [];
  const deadline = Date.now() + secondsFor * 1000;
  while (Date.now() < deadline) samples.push(await transferOnce(baseUrl, payer, payees[samples.length % payees.length]!));
  return samples;
}

function summary(samples: readonly TransferSample[]) {
  const ok = samples.filter((s) => s.status === 201);
  return { count: ok.length, p50Ms: round(percentile(ok.map((s) => s.ms), 50)), p99Ms: round(percentile(ok.map((s) => s.ms), 99)), failures: samples.length - ok.length };
}

async function main(): Promise<void> {
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const { name: database, url: databaseUrl } = await createBenchDatabase(`bank_history_${runId}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bank-history-'));
  const adminEmail = `history-admin-${runId}@bank.example`;
  const adminPassword = `history-admin-${randomBytes(8).toString('hex')}`;
  const bank = await startBank({
    command: startCommand,
    cwd: path.resolve(args.cwd ?? repoRoot),
    port: await freeTcpPort(),
    logFile: path.join(dataDir, 'bank.log'),
    env: {
      NODE_ENV: 'production',
      ...freshBankKeys(),
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: `history-${runId}:`,
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SIGNUPS: '1000000',
      // Set-up sign-ups hash passwords and pins many at once: slower than the production deadline on 2 cores.
      REQUEST_DEADLINE_MS: '60000',
    },
  });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  try {
    const admin = await signInStaff(bank.baseUrl, adminEmail, adminPassword);
    log(`setting up ${PAYERS + 3} customers`);
    const customers = await mapLimit(Array.from({ length: PAYERS + 3 }, (_, i) => i), 8, (i) => signUpCustomer(bank.baseUrl, i, runId));
    await mapLimit(customers, 8, async (customer, i) => {
      await expectStatus(call(bank.baseUrl, 'PUT', `/user/admin/account/${customer.id}`, { token: admin, body: { savings: 0, checking: 1_000_000, number: customer.accountNumber } }), 200, 'balances');
      await expectStatus(
        call(bank.baseUrl, 'PUT', `/user/admin/${customer.id}`, {
          token: admin,
          body: { firstName: `Bench${i}`, lastName: 'Customer', email: customer.email, phone: '555-0100', location: { address: `${i} Bench Street`, state: 'NY' }, verificationStatus: 'verified', isBlocked: false, paymentPin: BENCH_PIN },
        }),
        200,
        'pin',
      );
    });
    const [fresh, aged, merchant, ...payers] = customers as [BenchCustomer, BenchCustomer, BenchCustomer, ...BenchCustomer[]];
    await waitForQuiet(pool, 60_000);
    const { rows: before } = await pool.query<{ total: string }>('SELECT sum(savings_cents + checking_cents)::text AS total FROM rm.accounts');

    // The load average as each phase starts, printed beside its row (a shared machine's figure means little without it).
    const phaseLoad: string[] = [];
    phaseLoad.push(await loadAverage());
    log(`1. transfers from a payer with no history, one at a time, ${seconds} s (load ${phaseLoad[0]})`);
    await serialTransfers(bank.baseUrl, fresh, payers, 2);
    const noHistory = summary(await serialTransfers(bank.baseUrl, fresh, payers, seconds));

    phaseLoad.push(await loadAverage());
    log(`2. 8 concurrent staff postings to one account until it holds ${historyEvents} events (load ${phaseLoad[1]})`);
    let posted = 0;
    let conflicts = 0;
    let otherFailures = 0;
    const postingStarted = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (posted < historyEvents) {
          posted += 1;
          const answer = await call(bank.baseUrl, 'POST', `/transaction/admin/${aged.id}`, {
            token: admin,
            headers: { 'idempotency-key': randomUUID() },
            body: { amount: 0.01, transactionType: 'credit', date: '2025-01-01', description: 'History', account: 'savings' },
          });
          if (answer.status === 409) conflicts += 1;
          else if (answer.status !== 201) otherFailures += 1;
        }
      }),
    );
    const postingSeconds = (performance.now() - postingStarted) / 1000;
    const postingsPerSecond = round(posted / postingSeconds);
    const { rows: streamRows } = await pool.query<{ revision: string }>('SELECT revision::text FROM eventstore.streams WHERE stream_id = $1', [`account-${aged.id}`]);
    const agedEvents = Number(streamRows[0]?.revision ?? -1) + 1;
    log(`   ${posted} postings in ${postingSeconds.toFixed(1)} s (${postingsPerSecond}/s), ${conflicts} × 409, ${otherFailures} other failures; the account holds ${agedEvents} events`);

    phaseLoad.push(await loadAverage());
    log(`3. transfers from that payer, one at a time, ${seconds} s (load ${phaseLoad[2]})`);
    const withHistory = summary(await serialTransfers(bank.baseUrl, aged, payers, seconds));

    phaseLoad.push(await loadAverage());
    log(`4. ${payers.length} payers paying one merchant, 32 in flight, ${seconds} s (load ${phaseLoad[3]})`);
    const hot: TransferSample[] = [];
    const deadline = Date.now() + seconds * 1000;
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (Date.now() < deadline) {
          const payer = payers[next % payers.length]!;
          next += 1;
          hot.push(await transferOnce(bank.baseUrl, payer, merchant));
        }
      }),
    );
    const finalMs = await waitForQuiet(pool, 120_000);
    const hotOk = hot.filter((s) => s.status === 201);
    const hotReport = {
      transfersPerSecond: round(hotOk.length / seconds),
      p50Ms: round(percentile(hotOk.map((s) => s.ms), 50)),
      p99Ms: round(percentile(hotOk.map((s) => s.ms), 99)),
      conflicts: hot.filter((s) => s.status === 409).length,
      serverErrors: hot.filter((s) => s.status >= 500 || s.status === 0).length,
      finalAfterLoadMs: Math.round(finalMs),
    };

    const { rows: after } = await pool.query<{ total: string }>('SELECT sum(savings_cents + checking_cents)::text AS total FROM rm.accounts');
    const postedCents = posted - conflicts - otherFailures;
    const store = await createEventStore(parseConfig({ DATABASE_URL: databaseUrl, NODE_ENV: 'test' }), { pool });
    const verified = await verifyReadModels({ pool, store });
    await store.close();
    const problems = [
      ...(BigInt(after[0]!.total) === BigInt(before[0]!.total) + BigInt(postedCents) ? [] : [`money: ${before[0]!.total} + ${postedCents} ≠ ${after[0]!.total}`]),
      ...(verified.ok ? [] : [`${verified.mismatches.length} read-model mismatches`]),
      ...(hotReport.conflicts + hotReport.serverErrors + conflicts + otherFailures === 0 ? [] : ['409s or errors under load']),
    ];
    const result = {
      historyEvents: agedEvents,
      noHistoryP50Ms: noHistory.p50Ms,
      withHistoryP50Ms: withHistory.p50Ms,
      historyRatio: round(withHistory.p50Ms / noHistory.p50Ms, 2),
      postingsPerSecond,
      postingConflicts: conflicts,
      hot: hotReport,
      verified: problems.length === 0,
      problems,
      load: await loadAverage(),
    };
    console.log(`
| what | measured |
|---|---|
| transfer p50, payer with no history | ${noHistory.p50Ms} ms (p99 ${noHistory.p99Ms} ms, ${noHistory.count} transfers) |
| transfer p50, payer with ${agedEvents} events | ${withHistory.p50Ms} ms (p99 ${withHistory.p99Ms} ms, ${withHistory.count} transfers): ${result.historyRatio}× |
| staff postings to one account, 8 at a time | ${postingsPerSecond}/s, ${conflicts} × 409, ${otherFailures} other failures |
| ${payers.length} payers → one merchant, 32 in flight | ${hotReport.transfersPerSecond}/s, p50 ${hotReport.p50Ms} ms, p99 ${hotReport.p99Ms} ms, ${hotReport.conflicts} × 409, ${hotReport.serverErrors} × 5xx; every balance final ${hotReport.finalAfterLoadMs} ms after the load stopped |
`);
    if (!args['no-write']) {
      writeBenchSection(
        repoRoot,
        'history',
        `## History length and hot accounts (\`npm run bench:history\`)

Last run: ${new Date().toISOString()}${quick ? ' (quick)' : ''}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, load average at the end ${result.load}; bank started with \`${startCommand}\`.

| what | measured | load average as it started |
|---|---|---|
| transfer p50, payer with no history (one at a time) | ${noHistory.p50Ms} ms (p99 ${noHistory.p99Ms} ms) | ${phaseLoad[0]} |
| transfer p50, payer with ${agedEvents} events of history | ${withHistory.p50Ms} ms (p99 ${withHistory.p99Ms} ms): **${result.historyRatio}×** the first | ${phaseLoad[2]} |
| staff postings to one account, 8 at a time | ${postingsPerSecond}/s, **${conflicts} × 409** | ${phaseLoad[1]} |
| ${payers.length} payers → one merchant, 32 in flight | ${hotReport.transfersPerSecond} transfers/s, p50 ${hotReport.p50Ms} ms, p99 ${hotReport.p99Ms} ms, **${hotReport.conflicts} × 409, ${hotReport.serverErrors} × 5xx**; every balance final **${hotReport.finalAfterLoadMs} ms** after the load stopped | ${phaseLoad[3]} |

Checked: ${result.verified ? 'money conserved, the read models equal to the replay' : `FAILED: ${problems.join('; ')}`}.`,
      );
    }
    console.log(JSON.stringify(result));
    if (problems.length > 0) process.exitCode = 2;
  } finally {
    await pool.end().catch(() => undefined);
    await bank.stop();
    if (!process.env.BENCH_KEEP_DATABASE) await dropBenchDatabase(database);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

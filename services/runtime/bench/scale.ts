/**
 * `npm run bench:scale` (`-- --quick` for 100k customers / 1M postings; default 1M / 10M): the admin's and the
 * auditors' reads on a generated bank. On a fresh database of its own it loads the bank with seed:scale's generator
 * (seedBank, then the projector's rebuild), starts the bank as production does, and measures p50/p95/p99 over HTTP of:
 * the customer list (pages walked by cursor), a search by name fragment, by e-mail and by account number, one
 * customer's detail, a customer's transactions page (an ordinary customer and the largest merchant, pages walked by
 * cursor), the auditors' balances-at for the largest merchant, the staff log page and a customer's own
 * GET /user/me; the ledger's trial balance now (read model) and at an instant (the latest day close and the log after
 * it: the generated history ends the day before yesterday, every day of it closed with its interest; before the bank
 * starts, the business day before today is closed by the bank's own COB, with the interest accrual of every account, timed; the bench then posts a day's worth of staff transactions over HTTP and asks for the
 * trial balance at an instant after them, and at the end of the history's busiest day, a millisecond before its close: the
 * whole day replayed, checked against the journal's lines); plus the load and rebuild times, the database size and the largest body. Writes its section of
 * docs/benchmarks.md (unless --no-write) and prints one JSON object as its last line.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { closePasswordWorkers, hashSecret } from '@bank/api';
import { createCob, interestStep } from '@bank/books';
import { createCommandHandler, loadChainKeys } from '@bank/commands';
import { loadCheckpointKeys, parseCheckpointSettings } from '@bank/integrity';
import { createPostgresEventStore, ensureEventStoreSchema } from '@bank/eventstore';
import { createPool, createProgressReporter, systemClock, utcDate } from '@bank/platform';
import { migrateReadModels, startProjector } from '@bank/projector';
import { freeTcpPort } from '@bank/testkit';
import { loadGeneratedBank, writeCheckpoints } from '../src/scale/loadGeneratedBank';
import { merchantCount, planTransactionCounts, plannedCustomer } from '../src/scale/seedPlan';
import { SEED_PASSWORD } from '../src/scale/seedPassword';
import { call, type ApiAnswer } from './lib/bankClient';
import { startBank } from './lib/bankProcess';
import { freshBankKeys } from './lib/bankSecrets';
import { BENCH_SERVER_URL, createBenchDatabase, dropBenchDatabase, writeBenchSection } from './lib/benchDatabase';
import { loadAverage, percentile, round } from './lib/stats';
import { signInStaff } from './lib/staffSignIn';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    customers: { type: 'string' },
    transactions: { type: 'string' },
    seed: { type: 'string' },
    samples: { type: 'string' },
    start: { type: 'string' },
    database: { type: 'string' },
    workers: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
// `--database NAME`: measure the reads on a bank an earlier run loaded and kept (BENCH_KEEP_DATABASE=1), with the
// same --customers/--transactions/--seed; nothing is loaded, and the database is kept.
const reuse = args.database;
const quick = args.quick ?? false;
const customers = Number(args.customers ?? (quick ? 100_000 : 1_000_000));
const transactions = Number(args.transactions ?? (quick ? 1_000_000 : 10_000_000));
const seed = Number(args.seed ?? 42);
// `--workers N`: the load's generating threads (seed:scale's --workers; default 0, the loading thread generates).
const workers = Number(args.workers ?? 0);
if (!Number.isInteger(workers) || workers < 0) throw new Error(`--workers must be a whole number, got ${args.workers}`);
const samples = Number(args.samples ?? (quick ? 40 : 100));
// The whole bank, as production starts it on one machine (API, projector, worker). seed:scale leaves the transfer
// process's checkpoint past the load, and the process reads debits alone (a filtered subscription), so the worker
// does not re-read the generated log. `--start` runs anything else.
const startCommand =
  args.start ?? process.env.BENCH_START ?? 'node --max-semi-space-size=64 --import tsx services/runtime/src/main.ts';

/** An admin made with `npm run user:create` against the bank's database and keys: its e-mail and password. */
async function createBenchAdmin(runId: string, env: Record<string, string>): Promise<[string, string]> {
  const email = `bench-admin-${runId}@bank.example`;
  const password = `bench-${randomBytes(12).toString('hex')}`;
  await promisify(execFile)('npm', ['run', '--silent', 'user:create', '--', '--role', 'admin', '--email', email, '--password', password], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
  });
  return [email, password];
}

function databaseNamed(name: string): string {
  const url = new URL(BENCH_SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function log(message: string): void {
  console.log(`[bench:scale ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

interface ReadStats {
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
}

let largestBodyBytes = 0;
let largestBodyRead = '';

/** `count` timed GETs (one at a time, after one untimed warm-up); each must answer 200. */
async function measure(name: string, count: number, request: (i: number) => Promise<ApiAnswer>): Promise<ReadStats> {
  const times: number[] = [];
  for (let i = -1; i < count; i += 1) {
    const started = performance.now();
    const answer = await request(Math.max(0, i));
    const ms = performance.now() - started;
    if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    const bytes = Number(answer.headers.get('content-length') ?? JSON.stringify(answer.body).length);
    if (bytes > largestBodyBytes) [largestBodyBytes, largestBodyRead] = [bytes, name];
    if (i >= 0) times.push(ms);
  }
  const stats = { p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)), p99Ms: round(percentile(times, 99)) };
  log(`   ${name}: p50 ${stats.p50Ms} ms, p95 ${stats.p95Ms} ms, p99 ${stats.p99Ms} ms`);
  return stats;
}

/** GET `path` page after page (each sample the next page, by the cursor of the previous answer). */
function pageWalker(baseUrl: string, token: string, path: string) {
  let cursor: string | null = null;
  return async () => {
    const separator = path.includes('?') ? '&' : '?';
    const answer = await call<{ next?: string | null }>(baseUrl, 'GET', `${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    cursor = answer.body.next ?? null;
    return answer;
  };
}

async function main(): Promise<void> {
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const { name: database, url: databaseUrl } = reuse ? { name: reuse, url: databaseNamed(reuse) } : await createBenchDatabase(`bank_scale_${runId}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bank-scale-'));
  const keys = freshBankKeys();
  const pool = createPool(databaseUrl, 24);
  const progress = createProgressReporter({ print: log });
  let bank: Awaited<ReturnType<typeof startBank>> | undefined;
  try {
    let load: { events: number; loadSeconds: number; rebuildSeconds: number; checkpointSeconds: number; eventsPerSecond: number; eventsPerCpuSecond: number; indexSeconds: number; loadAverage: string; referenceEventsPerSecond: number } | undefined;
    let closeSeconds: number | null = null;
    // Where the bank started below keeps its signed checkpoints, and its key: the bank's own settings for this env.
    const checkpoints = {
      dir: parseCheckpointSettings({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, EVENTSTORE_URL: undefined }, {}).dir,
      keys: loadCheckpointKeys({ NODE_ENV: 'production', DATA_DIR: dataDir }, keys),
    };
    if (!reuse) {
      log(`loading ${customers} customers and ${transactions} postings (seed ${seed}) into ${database}`);
      await ensureEventStoreSchema(pool);
      await migrateReadModels(pool);
      const store = createPostgresEventStore({ pool });
      const passwordHash = await hashSecret(SEED_PASSWORD).finally(closePasswordWorkers);
      const { seeded, loadSeconds: loaded, loadCpuSeconds, rebuilt, checkpointSeconds, bulk } = await loadGeneratedBank({
        pool,
        store,
        // COPY into the fresh database (bulkEventLoad.ts), its signed checkpoints written as it goes.
        bulk: true,
        customers,
        transactions,
        seed,
        workers,
        // The history's days closed up to the day before yesterday: the close timed below is yesterday's, and the
        // bank (calendar mode) has no day to catch up when it starts.
        historyEnd: utcDate(new Date(Date.now() - 2 * 86_400_000)),
        passwordHash,
        chainKeys: loadChainKeys({ NODE_ENV: 'production', DATA_DIR: dataDir }, keys),
        onProgress: ({ customers: done }) => progress.update({ phase: 'seed customers', done, total: customers, unit: 'customers' }),
        rebuild: { unlogged: true, onProgress: (update) => progress.update({ phase: `rebuild ${update.phase}`, done: update.events, unit: 'events' }) },
        checkpoints,
      });
      const loadSeconds = round(loaded);
      progress.stop();
      await store.close();
      const rebuildSeconds = round(rebuilt.durationMs / 1000);
      const loadAverageAfterLoad = await loadAverage();
      const referenceEventsPerSecond = await writeReference(pool, Math.min(seeded.events, 500_000));
      load = {
        events: seeded.events,
        loadSeconds,
        rebuildSeconds,
        checkpointSeconds: round(checkpointSeconds ?? bulk?.checkpointSeconds ?? 0),
        eventsPerSecond: Math.round(seeded.events / loaded),
        eventsPerCpuSecond: Math.round(seeded.events / loadCpuSeconds),
        indexSeconds: round(bulk?.indexSeconds ?? 0),
        loadAverage: loadAverageAfterLoad,
        referenceEventsPerSecond,
      };
      log(
        `bulk load: ${load.eventsPerSecond} events/s, ${load.eventsPerCpuSecond} per CPU-second of this process (indexes ${load.indexSeconds} s, checkpoints ${load.checkpointSeconds} s); same-run reference, PostgreSQL alone writing (INSERT … SELECT) ` +
          `${Math.min(seeded.events, 500_000)} of the loaded rows into a table of the same shape: ${referenceEventsPerSecond} events/s; load average ${loadAverageAfterLoad}`,
      );
      closeSeconds = await closeGeneratedHistory(databaseUrl, pool, loadChainKeys({ NODE_ENV: 'production', DATA_DIR: dataDir }, keys));
      log(`one close of business after the generated history (${utcDate(new Date(Date.now() - 86_400_000))}) in ${closeSeconds} s`);
    } else {
      // The bank's checkpoint writer would read the whole log on its first start with this fresh directory: done
      // before the bank starts, so that the reads are measured on a bank with nothing to catch up.
      const store = createPostgresEventStore({ pool });
      log(`checkpoints of the kept log written in ${round(await writeCheckpoints(store, checkpoints))} s`);
      await store.close();
    }
    const { rows: sizeRows } = await pool.query<{ bytes: string }>('SELECT pg_database_size(current_database())::text AS bytes');
    const databaseBytes = Number(sizeRows[0]!.bytes);
    const events = load?.events ?? Number((await pool.query<{ n: string }>('SELECT count(*)::text AS n FROM eventstore.events')).rows[0]!.n);
    log(`${load ? `loaded ${events} events in ${load.loadSeconds} s (${workers} generating threads), rebuilt in ${load.rebuildSeconds} s, checkpoints in ${load.checkpointSeconds} s` : `${events} events`}; database ${(databaseBytes / 2 ** 30).toFixed(2)} GiB`);

    bank = await startBank({
      command: startCommand,
      cwd: repoRoot,
      port: await freeTcpPort(),
      logFile: path.join(dataDir, 'bank.log'),
      env: { NODE_ENV: 'production', ...keys, DATABASE_URL: databaseUrl, REDIS_PREFIX: `scale-${runId}:`, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    const base = bank.baseUrl;
    const options = { customers, transactions, seed };
    const counts = planTransactionCounts(options);
    const ordinaryIndex = merchantCount(customers) + 7;
    const ordinary = plannedCustomer(options, counts, ordinaryIndex);
    const { rows: ids } = await pool.query<{ id: string; email: string }>(
      `SELECT id, email_lower AS email FROM rm.users WHERE email_lower = ANY ($1::text[])`,
      [[ordinary.email.toLowerCase(), plannedCustomer(options, counts, 0).email.toLowerCase()]],
    );
    const idOf = (email: string) => ids.find((row) => row.email === email.toLowerCase())!.id;
    const ordinaryId = idOf(ordinary.email);
    const merchantId = idOf(plannedCustomer(options, counts, 0).email);
    // A kept bank's generated admin enrolled a second factor in the run that loaded it: a new admin signs in instead.
    const admin = reuse ? await signInStaff(base, ...(await createBenchAdmin(runId, { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, ...keys }))) : await signInStaff(base, `seed-admin@seed${seed}.example`, SEED_PASSWORD);
    const signIn = await call<{ token: string }>(base, 'POST', '/auth/signin', { body: { email: ordinary.email, password: SEED_PASSWORD } });
    if (signIn.status !== 200) throw new Error(`customer sign-in: ${signIn.status}`);
    const customerToken = signIn.body.token;
    const someone = (i: number) => plannedCustomer(options, counts, (i * 7_919 + 13) % customers);
    const get = (path: string, token = admin) => call(base, 'GET', path, { token });

    log(`measuring, ${samples} samples per read (load ${await loadAverage()})`);
    const reads: Record<string, ReadStats> = {};
    const customerPages = pageWalker(base, admin, '/user/admin?limit=50');
    reads['customer list page'] = await measure('customer list page', samples, () => customerPages());
    reads['search by name fragment'] = await measure('search by name fragment', samples, (i) => get(`/user/admin?limit=50&search=${encodeURIComponent(someone(i).lastName.slice(0, 5).toLowerCase())}`));
    reads['search by e-mail prefix'] = await measure('search by e-mail prefix', samples, (i) => get(`/user/admin?limit=50&search=${encodeURIComponent(someone(i).email.slice(0, someone(i).email.indexOf('@')))}`));
    reads['search by account number'] = await measure('search by account number', samples, (i) => get(`/user/admin?limit=50&search=${someone(i).accountNumber}`));
    reads['customer detail'] = await measure('customer detail', samples, () => get(`/user/admin/${ordinaryId}`));
    const ordinaryPages = pageWalker(base, admin, `/transaction/admin/${ordinaryId}?limit=50`);
    reads['transactions page (ordinary customer)'] = await measure('transactions page (ordinary customer)', samples, () => ordinaryPages());
    const merchantPages = pageWalker(base, admin, `/transaction/admin/${merchantId}?limit=50`);
    reads['transactions page (largest merchant)'] = await measure('transactions page (largest merchant)', samples, () => merchantPages());
    reads['balances-at (largest merchant)'] = await measure('balances-at (largest merchant)', Math.max(5, Math.floor(samples / 8)), () =>
      get(`/audit/users/${merchantId}/balances?at=2025-07-01T00:00:00Z`),
    );
    reads['staff log page'] = await measure('staff log page', samples, () => get('/audit/log?limit=50'));
    reads['own GET /user/me'] = await measure('own GET /user/me', samples, () => get('/user/me', customerToken));
    reads['trial balance now'] = await measure('trial balance now', samples, () => get('/audit/ledger/trial-balance'));
    // The same-run reference for the reads: the cheapest answer the bank gives (no database), over the same HTTP.
    reads['reference: GET /health'] = await measure('reference: GET /health', samples, () => call(base, 'GET', '/health'));
    // The worst instant for the replay: the end of the history's busiest day (the most journal lines), a millisecond
    // before its close, so the answer is the day before's close and the whole day's log after it (the generated
    // history records a day's events just before its close: seedDays.ts). Checked against the journal's own lines.
    // A month's last day holds its interest payments (recorded at the close's instant, so read within the clock
    // margin but not posted); the busiest other day is the worst of an ordinary day.
    const { rows: busiest } = await pool.query<{ business_date: string; closed_at: Date; line_count: number; month_end: boolean }>(
      `SELECT DISTINCT ON (month_end) business_date::text, closed_at, line_count, month_end
         FROM (SELECT *, business_date = (date_trunc('month', business_date) + interval '1 month - 1 day')::date AS month_end FROM rm.ledger_days) d
        ORDER BY month_end, line_count DESC, business_date`,
    );
    for (const day of busiest) {
      const at = new Date(day.closed_at.getTime() - 1);
      const expected = await journalTotalsAt(pool, at);
      const which = day.month_end ? 'the busiest month end' : 'the busiest other day';
      reads[`trial balance at the end of ${which} (${day.business_date}: ${day.line_count} journal lines)`] = await measure(
        `trial balance at the end of ${which}`,
        Math.max(5, Math.floor(samples / 4)),
        async () => {
          const answer = await get(`/audit/ledger/trial-balance?at=${encodeURIComponent(at.toISOString())}`);
          if (answer.status === 200) checkTrialBalance(answer.body, expected, at);
          return answer;
        },
      );
    }
    const afterClose = await postStaffDay(base, admin, ordinaryId);
    reads[`trial balance at an instant (${afterClose.postings} postings after the latest close)`] = await measure('trial balance at an instant', Math.max(5, Math.floor(samples / 4)), () =>
      get(`/audit/ledger/trial-balance?at=${encodeURIComponent(afterClose.at)}`),
    );

    const result = {
      customers,
      transactions,
      events,
      workers,
      loadSeconds: load?.loadSeconds ?? null,
      rebuildSeconds: load?.rebuildSeconds ?? null,
      checkpointSeconds: load?.checkpointSeconds ?? null,
      closeSeconds,
      eventsPerSecond: load?.eventsPerSecond ?? null,
      eventsPerCpuSecond: load?.eventsPerCpuSecond ?? null,
      referenceEventsPerSecond: load?.referenceEventsPerSecond ?? null,
      indexSeconds: load?.indexSeconds ?? null,
      loadAverageAfterLoad: load?.loadAverage ?? null,
      databaseBytes,
      largestBodyBytes,
      largestBodyRead,
      reads,
    };
    const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB`;
    const table = Object.entries(reads)
      .map(([name, stats]) => `| ${name} | ${stats.p50Ms} ms | ${stats.p95Ms} ms | ${stats.p99Ms} ms |`)
      .join('\n');
    if (!args['no-write']) {
      writeBenchSection(
        repoRoot,
        'scale',
        `## The bank at size (\`npm run bench:scale\`)

Last run: ${new Date().toISOString()}${quick ? ' (quick)' : ''}, ${machine}, PostgreSQL on localhost, the bank started with
\`${startCommand}\`; load average after the reads
${await loadAverage()}. A generated bank (\`npm run seed:scale\`, seed ${seed}): **${customers.toLocaleString('en-US')} customers, ${transactions.toLocaleString('en-US')} postings**
(${events.toLocaleString('en-US')} events), ${load ? `loaded by the bulk path in **${load.loadSeconds} s** (**${load.eventsPerSecond} events/s**, ${load.eventsPerCpuSecond} per CPU-second of the loading process, its signed checkpoints written as it went in ${load.checkpointSeconds} s and the indexes built after in ${load.indexSeconds} s; same-run reference: PostgreSQL alone writes the loaded rows (\`INSERT … SELECT\`) into a table of the same shape at ${load.referenceEventsPerSecond} events/s; load average after the load ${load.loadAverage}), rebuilt in **${load.rebuildSeconds} s**` : `loaded by an earlier run (\`--database ${database}\`)`}${closeSeconds === null ? '' : `; its history of 396 business days closed day by day as it was generated (interest accrued every day, paid every month), then one close of business (yesterday, the interest accrual of every account) in **${closeSeconds} s**`}; database
**${(databaseBytes / 2 ** 30).toFixed(2)} GiB**. Largest answer: ${largestBodyBytes} bytes (${largestBodyRead}). ${samples} samples a read, one at a time, over HTTP.

| read | p50 | p95 | p99 |
|---|---|---|---|
${table}

Reproduce: \`npm run bench:scale\` (1M / 10M) or \`npm run bench:scale -- --quick\` (100k / 1M) on a machine with PostgreSQL
and Redis on localhost; it creates and drops a database of its own (\`BENCH_KEEP_DATABASE=1\` keeps it, and
\`--database NAME\` measures the reads again on a kept one; \`--workers N\` generates on N threads).`,
      );
    }
    console.log(JSON.stringify(result));
  } finally {
    await bank?.stop();
    await pool.end();
    if (!process.env.BENCH_KEEP_DATABASE && !reuse) await dropBenchDatabase(database);
  }
}

/**
 * The load's same-run reference: PostgreSQL alone writing `rows` of the loaded events into a logged table of the
 * events table's shape (its primary key, no other index), no application in the way. Answers events a second.
 */
async function writeReference(pool: ReturnType<typeof createPool>, rows: number): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('DROP TABLE IF EXISTS public.bulk_reference');
    await client.query('CREATE TABLE public.bulk_reference (LIKE eventstore.events INCLUDING DEFAULTS)');
    await client.query('ALTER TABLE public.bulk_reference ADD PRIMARY KEY (global_position)');
    const started = performance.now();
    await client.query('INSERT INTO public.bulk_reference SELECT * FROM eventstore.events WHERE global_position <= $1', [rows]);
    const seconds = (performance.now() - started) / 1000;
    return Math.round(rows / seconds);
  } finally {
    await client.query('DROP TABLE IF EXISTS public.bulk_reference');
    client.release();
  }
}

/**
 * Closes the generated history as the business day before today, as the COB does (a manual business calendar
 * starting then: this process only). The bank started afterwards in calendar mode finds that date closed.
 */
async function closeGeneratedHistory(databaseUrl: string, pool: ReturnType<typeof createPool>, chainKeys: ReturnType<typeof loadChainKeys>): Promise<number> {
  const store = createPostgresEventStore({ pool });
  const commands = createCommandHandler({ store, chainKeys });
  // The interest step waits for the read models to apply the day's accrual: a projector runs here for the close.
  const projector = startProjector({ pool, store });
  await projector.ready;
  const started = performance.now();
  try {
    const cob = createCob({
      mode: 'manual',
      commands,
      store,
      pool,
      clock: systemClock,
      // The generated calendar is started already (its history closed to the day before yesterday): this closes yesterday.
      startDate: utcDate(new Date(Date.now() - 86_400_000)),
      steps: {
        standingOrders: async () => {},
        // No ACH file in this test: nothing to settle.
        achSettlement: async () => undefined,
        // The accrual of every generated account (the COB's own step; summary: accounts accruing, cents booked).
        interest: async (date, today) => {
          const stepStarted = performance.now();
          const summary = await interestStep({ commands, store, pool, clock: systemClock, projectorWaitMs: 600_000, paymentConcurrency: 16 })(date, today);
          log(`  (interest of ${date}: ${JSON.stringify(summary)} in ${round((performance.now() - stepStarted) / 1000)} s)`);
          return summary;
        },
      },
    });
    const { closed } = await cob.advance(1);
    if (closed.length !== 1) throw new Error(`expected one close of the generated history, got ${JSON.stringify(closed)}`);
    log(`  (${databaseUrl.split('/').at(-1)}: closed ${closed.join(', ')})`);
    return round((performance.now() - started) / 1000);
  } finally {
    await projector.stop();
    await store.close();
  }
}

/** A day's worth of staff postings after the latest close (over HTTP, 8 at a time), then an instant after them. */
/** Each account's debits and credits (cents) over the journal lines recorded at or before `at` (rm.journal_lines). */
async function journalTotalsAt(pool: ReturnType<typeof createPool>, at: Date): Promise<Map<string, { debits: bigint; credits: bigint }>> {
  const { rows } = await pool.query<{ key: string; debits: string; credits: string }>(
    `SELECT account_key AS key, coalesce(sum(amount_cents) FILTER (WHERE side = 'debit'), 0)::text AS debits,
            coalesce(sum(amount_cents) FILTER (WHERE side = 'credit'), 0)::text AS credits
       FROM rm.journal_lines WHERE recorded_at <= $1 GROUP BY account_key`,
    [at],
  );
  return new Map(rows.map((row) => [row.key, { debits: BigInt(row.debits), credits: BigInt(row.credits) }]));
}

/** Throws unless the trial balance answered is balanced and each account's totals are the journal's. */
function checkTrialBalance(body: unknown, expected: ReadonlyMap<string, { debits: bigint; credits: bigint }>, at: Date): void {
  const data = (body as { data?: { balanced?: boolean; accounts?: { key: string; debits: number; credits: number }[] } }).data;
  const cents = (dollars: number) => BigInt(Math.round(dollars * 100));
  const wrong = (data?.accounts ?? []).filter((row) => {
    const want = expected.get(row.key) ?? { debits: 0n, credits: 0n };
    return cents(row.debits) !== want.debits || cents(row.credits) !== want.credits;
  });
  if (data?.balanced !== true || !data.accounts?.length || wrong.length > 0) {
    throw new Error(`the trial balance at ${at.toISOString()} is not the journal's: ${JSON.stringify(wrong.length ? wrong : data)}`);
  }
}

async function postStaffDay(base: string, admin: string, customerId: string): Promise<{ postings: number; at: string }> {
  const postings = quick ? 1_000 : 5_000;
  const today = utcDate(new Date());
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < postings) {
        next += 1;
        const answer = await call(base, 'POST', `/transaction/admin/${customerId}`, {
          token: admin,
          body: { amount: 1, transactionType: 'credit', date: today, description: 'Bench posting after the close', account: 'savings', reason: 'bench:scale' },
        });
        if (answer.status !== 201) throw new Error(`staff posting: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return { postings, at: new Date().toISOString() };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

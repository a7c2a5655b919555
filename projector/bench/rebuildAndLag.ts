/**
 * Projector benchmark: `npm run bench:projector` (docs/projections.md, "Benchmark").
 *
 * 1. A fresh database `bank_bench_projector_<n>` (on DATABASE_URL's server) with the PostgreSQL event store, and a
 *    history of BENCH_EVENTS (500,000) valid events of the random workload written straight into its tables.
 * 2. Reference, same run: the whole log read back with readAll pages of 1,000 (as bench:eventstore reads it).
 * 3. Rebuild of the read models from position 0 (events/s), then verifyReadModels (every balance and transaction
 *    against the domain's replay).
 * 4. The projector in its own process (`projector/src/main.ts`, as `npm run projector` runs it), and the bank's
 *    live traffic (transfers with their six events, sign-ups, staff edits: BankTraffic) appended through the event
 *    store at each rate of BENCH_RATES (1000,5000,10000 events/s) for BENCH_SECONDS (20) each: lag of every event
 *    from the start of its append to the read models having applied it (checkpoint NOTIFY), p50/p90/p99/max; after
 *    each rate, verifyReadModels again.
 * 4b. The highest append rate the machine sustains with the projector running (sustainedRate.ts: rates doubled from
 *    500 events/s for BENCH_SEARCH_SECONDS (BENCH_SECONDS) each until the appends fall below 95 % of the rate or the
 *    projector's part of the lag passes 1 s at p99 or grows along the try, then three halvings of the interval), and
 *    the live lag at 80 % of it for BENCH_SECONDS: the goal is p99 ≤ 100 ms (issue 33). BENCH_SEARCH=0 skips it.
 * 5. Table by table: a digest of every table as the live projector built it, a second rebuild while the projector
 *    runs, the digests again; they must be equal.
 * 6. A third rebuild while the traffic runs at 1,000 events/s: the live lag beside a rebuild.
 * The last line printed is one JSON object with the results. BENCH_KEEP=1 keeps the database;
 * BENCH_PROFILE_DIR=<dir> runs the projector process with --cpu-prof into that directory; BENCH_WRITERS (4) sets
 * how many event stores append the traffic; BENCH_PROJECTOR_MAIN runs another projector's main.ts.
 */
import { createPostgresEventStore, ensureEventStoreSchema, type EventStore, type Position } from '@bank/eventstore';
import { loadConfig } from '@bank/platform';
import { spawn, type ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { rebuildProjections, type RebuildResult } from '../src/rebuild/rebuildProjections';
import { BankTraffic } from '../src/testing/bankTraffic';
import { generateWorkload } from '../src/testing/randomWorkload';
import { verifyReadModels } from '../src/verify/verifyReadModels';
import { watchAppliedPosition } from './appliedWatcher';
import { createBenchDatabase, loadHistory } from './benchDatabase';
import { startCpuMeter } from './cpuMeter';
import { watchForeignFence } from './fenceWatch';
import { hotUpdates } from './hotUpdates';
import { runAtRate, type RateResult } from './liveRate';
import { findSustainedRate, SUSTAINED } from './sustainedRate';
import { tableDigests } from './tableDigest';
import { freeTcpPort } from '@bank/testkit';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 500_000);
const RATES = (process.env.BENCH_RATES ?? '1000,5000,10000').split(',').filter(Boolean).map(Number);
/** BENCH_SEARCH=0 skips the search for the highest sustained rate (and the lag at 80 % of it). */
const SEARCH = process.env.BENCH_SEARCH !== '0';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/** As long as the lag's own run by default: a backlog that grows shows within it. */
const SEARCH_SECONDS = Number(process.env.BENCH_SEARCH_SECONDS ?? SECONDS);
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
/** Event stores the live traffic is appended through, each with the default group commit: as many API processes. */
const WRITERS = Number(process.env.BENCH_WRITERS ?? 4);

const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The projector's own process, as `npm run projector` starts it. */
function startProjectorProcess(databaseUrl: string, metricsPort: number): ChildProcess {
  // BENCH_PROJECTOR_MAIN: another projector's main.ts (e.g. an older version checked out elsewhere) to compare with.
  const main = process.env.BENCH_PROJECTOR_MAIN ?? fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', main], {
    env: { ...process.env, DATABASE_URL: `${databaseUrl}?application_name=bank-projector`, LOG_LEVEL: 'warn', PROJECTOR_METRICS_PORT: String(metricsPort) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return child;
}

/** Sum and count of a histogram of the projector's /metrics. */
async function histogram(port: number, name: string): Promise<{ sum: number; count: number }> {
  const text = await new Promise<string>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/metrics' }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve(body));
    }).on('error', reject);
  });
  const value = (suffix: string) => Number(new RegExp(`^${name}_${suffix}\\{[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { sum: value('sum'), count: value('count') };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await createBenchDatabase(config.DATABASE_URL, 'projector');
  const { pool } = db;
  const store = createPostgresEventStore({ pool, pollIntervalMs: 250 });
  let projector: ChildProcess | undefined;
  const writers: EventStore[] = [];
  let watcher: Awaited<ReturnType<typeof watchAppliedPosition>> | undefined;
  const checks: string[] = [];
  const rates: RateResult[] = [];
  const summary: Record<string, unknown> = {};
  try {
    await ensureEventStoreSchema(pool);
    // The live rates depend on it: with the server's autovacuum off (this repository's CI machines), the dead rows of
    // the tables the projector updates and deletes from pile up over the run, and the later tries pay for them.
    const { rows: vacuum } = await pool.query<{ autovacuum: string }>('SHOW autovacuum');
    summary.autovacuum = vacuum[0]!.autovacuum;
    console.log(`bench database ${db.name}; the server's autovacuum ${vacuum[0]!.autovacuum}; load average ${load()}`);

    // 1. The history.
    let started = performance.now();
    const history = generateWorkload({ events: EVENTS, seed: 2025 });
    await loadHistory(pool, history);
    console.log(`history: ${history.length} events generated and written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // 2. Same-run reference: reading the log.
    started = performance.now();
    let read = 0;
    for (let after: Position | undefined; ; ) {
      const page = await store.readAll({ after, limit: 1_000 });
      if (page.length === 0) break;
      read += page.length;
      after = page.at(-1)!.position;
    }
    const readRate = Math.round(read / ((performance.now() - started) / 1000));
    console.log(`reference: readAll of the log, pages of 1,000: ${read} events at ${readRate} events/s (load average ${load()})`);

    // 3. The rebuild.
    const rebuildOnce = async (label: string): Promise<RebuildResult> => {
      console.log(`${label}: load average before ${load()}`);
      const cpu = await startCpuMeter(pool, db.name, projector?.pid);
      let reported = 0;
      const result = await rebuildProjections({
        pool,
        store,
        onProgress: ({ phase, events, eventsPerSecond }) => {
          if (phase === 'load' && events - reported < 100_000) return;
          reported = events;
          console.log(`  ${phase}: ${events} events, ${eventsPerSecond} events/s`);
        },
      });
      const used = await cpu();
      console.log(
        `${label}: ${result.events} events in ${(result.durationMs / 1000).toFixed(1)} s = ${result.eventsPerSecond} events/s ` +
          `(load ${(result.phaseMs.load / 1000).toFixed(1)} s, indexes ${(result.phaseMs.indexes / 1000).toFixed(1)} s, catch-up ${(result.phaseMs.catchUp / 1000).toFixed(1)} s, ` +
          `swap ${result.swapMs.toFixed(0)} ms with ${result.tailEvents} tail events); ${used.text}`,
      );
      return result;
    };
    const verify = async (label: string) => {
      const result = await verifyReadModels({ pool, store });
      console.log(`verify after ${label}: ok=${result.ok}, ${result.checked} accounts, ${result.events} events replayed, ${result.mismatches.length} mismatches`);
      checks.push(`${label}: ${result.ok ? 'ok' : 'FAILED'}`);
      return result.ok;
    };
    const rebuild = await rebuildOnce('REBUILD');
    summary.rebuildEventsPerSecond = rebuild.eventsPerSecond;
    summary.rebuildEvents = rebuild.events;
    let verified = await verify('rebuild');

    // 4. The projector in its own process, and the live traffic at each rate.
    const metricsPort = await freeTcpPort();
    projector = startProjectorProcess(db.url, metricsPort);
    const exited = new Promise<number | null>((resolve) => projector!.once('exit', resolve));
    watcher = await watchAppliedPosition(pool);
    const applied = watcher;
    const caughtUp = async (what: string) => {
      const head = await store.headPosition();
      if (!head) return;
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the projector did not catch up (${what})`)), 300_000).unref());
      const failed = exited.then((code) => {
        throw new Error(`the projector process exited (${code}) during ${what}`);
      });
      await Promise.race([applied.applied(head), timeout, failed]);
    };
    // Up once it serves its metrics (it does after migrating, as leader or standby).
    for (let attempt = 0; ; attempt += 1) {
      const up = await histogram(metricsPort, 'bank_projector_batch_events').then(() => true, () => false);
      if (up) break;
      if (attempt > 600 || projector.exitCode !== null) throw new Error('the projector process did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await caughtUp('start');
    const { users, adminId } = BankTraffic.usersOf(history);
    writers.push(...Array.from({ length: WRITERS }, () => createPostgresEventStore({ pool, pollIntervalMs: 250 })));
    const traffic = new BankTraffic({ users, adminId, seed: 99 });
    for (const rate of RATES) {
      console.log(`LIVE ${rate} events/s for ${SECONDS} s: load average before ${load()}`);
      const batchesBefore = await histogram(metricsPort, 'bank_projector_batch_events');
      const cpu = await startCpuMeter(pool, db.name, projector.pid);
      const fence = watchForeignFence(pool);
      const result = await runAtRate(writers, traffic, applied, rate, SECONDS);
      const used = await cpu();
      const foreign = await fence.stop();
      await caughtUp(`${rate} events/s`);
      const batchesAfter = await histogram(metricsPort, 'bank_projector_batch_events');
      const batches = batchesAfter.count - batchesBefore.count;
      const perBatch = batches > 0 ? (batchesAfter.sum - batchesBefore.sum) / batches : 0;
      rates.push(result);
      console.log(
        `LIVE ${rate}: ${result.events} events at ${result.achievedRate}/s: lag p50 ${ms(result.lag.p50)}, p90 ${ms(result.lag.p90)}, ` +
          `p99 ${ms(result.lag.p99)}, max ${ms(result.lag.max)}; append p50 ${ms(result.append.p50)} p99 ${ms(result.append.p99)}; ` +
          `append's return → applied p50 ${ms(result.afterAppend.p50)} p99 ${ms(result.afterAppend.p99)} ` +
          `(p90 ${ms(result.trend.firstThirdP90)} in the first third, ${ms(result.trend.lastThirdP90)} in the last); ` +
          `${batches} batches of ${perBatch.toFixed(1)} events on average; ${used.text}; ${foreign.text}`,
      );
      console.log(`  ${await hotUpdates(pool)}`);
      verified = (await verify(`${rate} events/s`)) && verified;
    }

    // 4b. The highest rate sustained, and the lag at 80 % of it.
    if (SEARCH) {
      console.log(`SEARCH for the highest sustained append rate (${SEARCH_SECONDS} s a try): load average before ${load()}`);
      const search = await findSustainedRate({
        writers,
        traffic,
        applied,
        settle: caughtUp,
        seconds: SEARCH_SECONDS,
        watchFence: () => watchForeignFence(pool),
        log: (line) => console.log(line),
      });
      const target = Math.round((0.8 * search.sustained) / 10) * 10;
      summary.sustainedRate = search.sustained;
      summary.firstUnsustainedRate = search.failed ?? null;
      console.log(
        `SUSTAINED: ${search.sustained} events/s (first not sustained: ${search.failed ?? 'none up to the maximum'}; a rate is sustained when ` +
          `${SUSTAINED.achievedShare * 100} % of it is appended and the projector's part stays under ${SUSTAINED.afterAppendP99Ms} ms at p99 ` +
          `without growing: p90 in the last third ≤ ${SUSTAINED.growthFactor} × the first third's + ${SUSTAINED.growthSlackMs} ms); load average ${load()}`,
      );
      if (target > 0) {
        console.log(`LIVE at 80 % of it, ${target} events/s for ${SECONDS} s: load average before ${load()}`);
        const cpu = await startCpuMeter(pool, db.name, projector.pid);
        const fence = watchForeignFence(pool);
        const result = await runAtRate(writers, traffic, applied, target, SECONDS);
        const used = await cpu();
        const foreign = await fence.stop();
        await caughtUp(`${target} events/s (80 % of the sustained rate)`);
        rates.push(result);
        summary.rateAt80 = target;
        summary.lagP50MsAt80 = result.lag.p50;
        summary.lagP99MsAt80 = result.lag.p99;
        summary.achievedRateAt80 = result.achievedRate;
        const met = result.lag.p99 <= 100;
        console.log(
          `LIVE ${target} (80 %): ${result.events} events at ${result.achievedRate}/s: lag p50 ${ms(result.lag.p50)}, p90 ${ms(result.lag.p90)}, ` +
            `p99 ${ms(result.lag.p99)} (goal ≤ 100 ms: ${met ? 'met' : 'NOT met'}), max ${ms(result.lag.max)}; append p50 ${ms(result.append.p50)} p99 ${ms(result.append.p99)}; ` +
            `append's return → applied p50 ${ms(result.afterAppend.p50)} p99 ${ms(result.afterAppend.p99)} ` +
            `(p90 ${ms(result.trend.firstThirdP90)} in the first third, ${ms(result.trend.lastThirdP90)} in the last); ${used.text}; ${foreign.text}; load average after ${load()}`,
        );
        console.log(`  ${await hotUpdates(pool)}`);
        verified = (await verify(`${target} events/s (80 %)`)) && verified;
      }
    }

    // 5. Table by table: what the live projector built against a rebuild of the same log.
    const liveBuilt = await tableDigests(pool);
    const again = await rebuildOnce('REBUILD while the projector runs');
    summary.secondRebuildEventsPerSecond = again.eventsPerSecond;
    await caughtUp('the second rebuild');
    const rebuilt = await tableDigests(pool);
    let equal = true;
    for (const table of Object.keys(liveBuilt)) {
      const same = liveBuilt[table] === rebuilt[table];
      equal &&= same;
      console.log(`  ${table}: live ${liveBuilt[table]} | rebuilt ${rebuilt[table]} ${same ? 'equal' : 'DIFFERENT'}`);
    }
    checks.push(`live-built tables = rebuilt tables: ${equal ? 'ok' : 'FAILED'}`);
    verified = (await verify('second rebuild')) && equal && verified;

    // 6. A rebuild beside a live bank: the traffic at 1,000 events/s while it runs (its effect on the live lag).
    const rebuilding = { done: false };
    const during = runAtRate(writers, traffic, applied, 1_000, 600, rebuilding);
    const third = await rebuildOnce('REBUILD with live traffic at 1,000 events/s').finally(() => (rebuilding.done = true));
    const beside = await during;
    await caughtUp('the rebuild with live traffic');
    console.log(
      `LIVE 1000 during that rebuild: ${beside.events} events: lag p50 ${ms(beside.lag.p50)}, p90 ${ms(beside.lag.p90)}, p99 ${ms(beside.lag.p99)}, ` +
        `max ${ms(beside.lag.max)}; the live projector paused ${third.swapMs.toFixed(0)} ms for the swap`,
    );
    summary.lagP99MsAt1kDuringRebuild = beside.lag.p99;
    verified = (await verify('the rebuild with live traffic')) && verified;

    console.log('\n| rate (events/s) | achieved | events | lag p50 | lag p90 | lag p99 | lag max | append p50 / p99 | append return → applied p50 / p99 |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const r of rates) {
      console.log(
        `| ${r.targetRate} | ${r.achievedRate} | ${r.events} | ${ms(r.lag.p50)} | ${ms(r.lag.p90)} | ${ms(r.lag.p99)} | ${ms(r.lag.max)} | ` +
          `${ms(r.append.p50)} / ${ms(r.append.p99)} | ${ms(r.afterAppend.p50)} / ${ms(r.afterAppend.p99)} |`,
      );
    }
    console.log(`checks: ${checks.join('; ')}; load average now ${load()}`);
    const at = (rate: number) => rates.find((r) => r.targetRate === rate);
    const json = {
      ...summary,
      lagP50MsAt1k: at(1000)?.lag.p50,
      lagP99MsAt1k: at(1000)?.lag.p99,
      lagP50MsAt5k: at(5000)?.lag.p50,
      lagP99MsAt5k: at(5000)?.lag.p99,
      lagP50MsAt10k: at(10000)?.lag.p50,
      lagP99MsAt10k: at(10000)?.lag.p99,
      achievedRateAt10k: at(10000)?.achievedRate,
      afterAppendP99MsAt10k: at(10000)?.afterAppend.p99,
      referenceReadEventsPerSecond: readRate,
      loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
      verified,
    };
    if (!verified) process.exitCode = 2;
    console.log(JSON.stringify(json, (_, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Number(value.toFixed(1)) : value)));
  } finally {
    await watcher?.close();
    if (projector && projector.exitCode === null) {
      const gone = new Promise((resolve) => projector!.once('exit', resolve));
      projector.kill('SIGTERM');
      await gone;
    }
    await Promise.all([store, ...writers].map((each) => each.close()));
    await db.drop(Boolean(process.env.BENCH_KEEP));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

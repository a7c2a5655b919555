/**
 * `npm run bench:faults [-- --kills 3]`: failover time of the bank on a highly available PostgreSQL (Patroni, a
 * primary and two synchronous standbys, HAProxy as the one DATABASE_URL; services/testkit/src/haPostgres.ts).
 *
 *   1. the bank's processes against the cluster, 12 funded customers, $1 transfers at 8 in flight, each with its
 *      Idempotency-Key and retried with it while its outcome is unknown;
 *   2. the reference of the same run: transfers answered 201 per second before any fault;
 *   3. `--kills` times (alternating nodes): SIGKILL of the primary's postmaster, then the time until a transfer sent
 *      after the kill is answered 201, and until the old primary is back as a synchronous standby;
 *   4. checks: every transfer ended 201 with one transfer id, one transfer per key in the read models, money
 *      conserved;
 *   5. read throughput, no writes running: customers' transaction lists (GET /transaction/complete?limit=20) at
 *      `--read-in-flight` for `--read-s` seconds per run, on the primary and with DATABASE_READ_URL on the standbys'
 *      endpoint alternately for `--read-rounds` rounds (the bank restarted before each run); every answer checked
 *      against the lists read before (same rows, same order);
 *   then writes its section of docs/benchmarks.md, with the load average beside the figures.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { startHaPostgres, type HaPostgres } from '@bank/testkit';
import { checkRecord, createFaultBank, INITIAL_DOLLARS, repoRoot, sleep, waitForQuiet, type FaultBank } from '../faults/faultHarness';
import { answerCounts, finalAnswer, keyedTransferLoad } from '../faults/keyedLoad';
import { writeBenchSection } from './lib/benchDatabase';
import { expectedLists, measureReads } from './lib/readThroughput';

const { values } = parseArgs({ options: { kills: { type: 'string', default: '3' }, 'read-s': { type: 'string', default: '10' }, 'read-in-flight': { type: 'string', default: '16' }, 'read-rounds': { type: 'string', default: '3' } } });
const kills = Math.max(1, Math.min(10, Number(values.kills)));
const readMs = Math.max(2, Math.min(120, Number(values['read-s']))) * 1_000;
const readInFlight = Math.max(1, Math.min(64, Number(values['read-in-flight'])));
const readRounds = Math.max(1, Math.min(10, Number(values['read-rounds'])));
const load = () => os.loadavg().map((value) => Math.round(value * 100) / 100);

let fx: FaultBank<HaPostgres> | undefined;
try {
  fx = await createFaultBank({
    customers: 12,
    postgres: async () => {
      const ha = await startHaPostgres();
      await ha.waitHealthy();
      return ha;
    },
  });
  const bank = fx;
  const traffic = keyedTransferLoad(() => bank.bank.baseUrl, bank.customers, 8);
  await sleep(2_000);
  const referenceFrom = Date.now();
  await sleep(5_000);
  const referenceRate = traffic.transfers.flatMap((t) => t.answers).filter((a) => a.status === 201 && a.at >= referenceFrom).length / 5;
  const loadBefore = load();
  const rounds: { node: string; writesBackMs: number; rejoinMs: number; load: number[] }[] = [];
  for (let round = 0; round < kills; round += 1) {
    const primary = await bank.postgres.waitHealthy(60_000);
    const killedAt = Date.now();
    await bank.postgres.killPostmaster(primary);
    let writesBackMs = Number.NaN;
    while (Date.now() < killedAt + 60_000) {
      await sleep(50);
      const first = traffic.transfers.flatMap((t) => t.answers).find((a) => a.status === 201 && a.at - a.ms > killedAt);
      if (first) {
        writesBackMs = first.at - killedAt;
        break;
      }
    }
    await bank.postgres.waitHealthy(60_000);
    rounds.push({ node: primary.name, writesBackMs, rejoinMs: Date.now() - killedAt, load: load() });
    console.log(`kill ${round + 1}: ${primary.name} killed; writes back after ${writesBackMs} ms; the cluster healthy again after ${Date.now() - killedAt} ms`);
    await sleep(2_000);
  }
  const transfers = await traffic.stop(60_000);
  const unfinished = transfers.filter((t) => finalAnswer(t).status !== 201);
  if (unfinished.length) throw new Error(`${unfinished.length} transfers did not end 201`);
  if (transfers.some((t) => new Set(t.answers.flatMap((a) => (a.transferId ? [a.transferId] : []))).size !== 1)) throw new Error('a key answered two transfers');
  await waitForQuiet(bank.pool, 60_000);
  const { rows } = await bank.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM rm.transfers');
  if (Number(rows[0]!.n) !== transfers.length) throw new Error(`${rows[0]!.n} transfers recorded for ${transfers.length} keys`);
  const record = await checkRecord(bank, transfers.map((t) => ({ ...finalAnswer(t), key: t.key })));
  if (BigInt(record.total) !== BigInt(bank.customers.length * INITIAL_DOLLARS * 100)) throw new Error(`money not conserved: ${record.total}`);

  // Reads: the primary alone, then the standbys through DATABASE_READ_URL, then the primary again (the order's own
  // effect shows), each on a freshly started bank, same data.
  await bank.postgres.waitHealthy(60_000);
  const expected = await expectedLists(bank.bank.baseUrl, bank.customers);
  const readPhase = async (name: string, extraEnv: Record<string, string>) => {
    await bank.bank.stop(20_000);
    await bank.restart(undefined, extraEnv);
    await measureReads(bank.bank.baseUrl, bank.customers, expected, readInFlight, 2_000);
    const phaseLoad = load();
    const result = await measureReads(bank.bank.baseUrl, bank.customers, expected, readInFlight, readMs);
    console.log(`reads on ${name}: ${result.perSecond.toFixed(1)}/s (p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms), load ${phaseLoad.join(' / ')}`);
    return { ...result, load: phaseLoad };
  };
  // Alternated, so that the machine's drift (other work on it) falls on both sides alike.
  const readRuns: { on: 'primary' | 'standby'; round: number; result: Awaited<ReturnType<typeof readPhase>> }[] = [];
  for (let round = 1; round <= readRounds; round += 1) {
    readRuns.push({ on: 'primary', round, result: await readPhase(`the primary (round ${round})`, {}) });
    readRuns.push({ on: 'standby', round, result: await readPhase(`the standby (round ${round})`, { DATABASE_READ_URL: bank.postgres.databaseReadUrl('bank') }) });
  }
  const median = (values: number[]) => {
    const sortedValues = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sortedValues.length / 2);
    return sortedValues.length % 2 ? sortedValues[middle]! : (sortedValues[middle - 1]! + sortedValues[middle]!) / 2;
  };
  const medianOn = (on: 'primary' | 'standby') => median(readRuns.filter((r) => r.on === on).map((r) => r.result.perSecond));
  const readRow = (r: (typeof readRuns)[number]) =>
    `| ${r.round} | ${r.on === 'primary' ? 'the primary (no `DATABASE_READ_URL`)' : 'the synchronous standbys (`DATABASE_READ_URL`)'} | ${r.result.perSecond.toFixed(1)} | ${r.result.p50Ms.toFixed(1)} ms | ${r.result.p99Ms.toFixed(1)} ms | ${r.result.reads} | ${r.result.load.join(' / ')} |`;

  const sorted = rounds.map((r) => r.writesBackMs).sort((a, b) => a - b);
  const lines = [
    '## Failover (npm run bench:faults)',
    '',
    `Measured ${new Date().toISOString()} on ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load average before the faults ${loadBefore.join(' / ')}. ` +
      'Patroni 3 (loop_wait 1 s, primary_start_timeout 0, synchronous_mode_strict) with etcd and HAProxy (checks every 500 ms), three PostgreSQL servers (a primary and two synchronous standbys, `synchronous_node_count: 2`) on this one machine; the bank as one process, $1 transfers at 8 in flight, each retried with its Idempotency-Key.',
    '',
    `Reference (same run, no fault): ${referenceRate.toFixed(1)} transfers answered 201 per second.`,
    '',
    '| kill | node | writes back after | cluster whole again (old primary rejoined as a sync standby) after | load average 1/5/15 min |',
    '|---|---|---|---|---|',
    ...rounds.map((r, i) => `| ${i + 1} | ${r.node} | ${(r.writesBackMs / 1000).toFixed(1)} s | ${(r.rejoinMs / 1000).toFixed(1)} s | ${r.load.join(' / ')} |`),
    '',
    `Time to writes: ${(sorted[0]! / 1000).toFixed(1)}–${(sorted.at(-1)! / 1000).toFixed(1)} s over ${sorted.length} kills. Checked: ${transfers.length} transfers (answers ${JSON.stringify(answerCounts(transfers))}; 0 = no answer), ` +
      'each ended 201 with one transfer id, one transfer per key in the read models, money conserved.',
    '',
    `Read throughput (same run, after the kills, no writes running): customers' transaction lists (\`GET /transaction/complete?limit=20\`) at ${readInFlight} in flight for ${readMs / 1000} s per run, ` +
      `the primary and the standbys alternated over ${readRounds} round${readRounds === 1 ? '' : 's'}, on a bank started afresh for each run (after 2 s of warm-up); every answer checked against the lists read before the runs (same rows, same order).`,
    '',
    '| round | reads on | reads/s | p50 | p99 | reads | load average 1/5/15 min (at its start) |',
    '|---|---|---|---|---|---|---|',
    ...readRuns.map(readRow),
    '',
    `Median reads/s: primary ${medianOn('primary').toFixed(1)}, standbys ${medianOn('standby').toFixed(1)} (ratio ${(medianOn('standby') / medianOn('primary')).toFixed(2)}). ` +
      `The three PostgreSQL servers, HAProxy and the bank share this machine's ${os.cpus().length} CPUs, so moving the reads frees no CPU here, and run-to-run spread on this shared machine is large; ` +
      'on separate hosts the standbys take the read models\' queries off the primary.',
  ];
  writeBenchSection(repoRoot, 'faults', lines.join('\n'));
  console.log(lines.join('\n'));
  console.log(JSON.stringify({ referenceRate, rounds, readRuns }));
} finally {
  await fx?.destroy();
}

/**
 * `npm run bench:faults [-- --kills 3]`: failover time of the bank on a highly available PostgreSQL (Patroni, a
 * primary and a synchronous standby, HAProxy as the one DATABASE_URL; services/testkit/src/haPostgres.ts).
 *
 *   1. the bank's processes against the cluster, 12 funded customers, $1 transfers at 8 in flight, each with its
 *      Idempotency-Key and retried with it while its outcome is unknown;
 *   2. the reference of the same run: transfers answered 201 per second before any fault;
 *   3. `--kills` times (alternating nodes): SIGKILL of the primary's postmaster, then the time until a transfer sent
 *      after the kill is answered 201, and until the old primary is back as the synchronous standby;
 *   4. checks: every transfer ended 201 with one transfer id, one transfer per key in the read models, money
 *      conserved; then writes its section of docs/benchmarks.md, with the load average beside the figures.
 *
 * Reads from replicas (DATABASE_READ_URL) are not built yet: no read-replica throughput is measured.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { startHaPostgres, type HaPostgres } from '@bank/testkit';
import { checkRecord, createFaultBank, INITIAL_DOLLARS, repoRoot, sleep, waitForQuiet, type FaultBank } from '../faults/faultHarness';
import { answerCounts, finalAnswer, keyedTransferLoad } from '../faults/keyedLoad';
import { writeBenchSection } from './lib/benchDatabase';

const { values } = parseArgs({ options: { kills: { type: 'string', default: '3' } } });
const kills = Math.max(1, Math.min(10, Number(values.kills)));
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

  const sorted = rounds.map((r) => r.writesBackMs).sort((a, b) => a - b);
  const lines = [
    '## Failover (npm run bench:faults)',
    '',
    `Measured ${new Date().toISOString()} on ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load average before the faults ${loadBefore.join(' / ')}. ` +
      'Patroni 3 (loop_wait 1 s, primary_start_timeout 0, synchronous_mode_strict) with etcd and HAProxy (checks every 500 ms), two PostgreSQL servers on this one machine; the bank as one process, $1 transfers at 8 in flight, each retried with its Idempotency-Key.',
    '',
    `Reference (same run, no fault): ${referenceRate.toFixed(1)} transfers answered 201 per second.`,
    '',
    '| kill | node | writes back after | cluster healthy again (old primary rejoined as sync standby) after | load average 1/5/15 min |',
    '|---|---|---|---|---|',
    ...rounds.map((r, i) => `| ${i + 1} | ${r.node} | ${(r.writesBackMs / 1000).toFixed(1)} s | ${(r.rejoinMs / 1000).toFixed(1)} s | ${r.load.join(' / ')} |`),
    '',
    `Time to writes: ${(sorted[0]! / 1000).toFixed(1)}–${(sorted.at(-1)! / 1000).toFixed(1)} s over ${sorted.length} kills. Checked: ${transfers.length} transfers (answers ${JSON.stringify(answerCounts(transfers))}; 0 = no answer), ` +
      'each ended 201 with one transfer id, one transfer per key in the read models, money conserved.',
    '',
    'Reads from replicas (`DATABASE_READ_URL`) are not built yet: no read-replica throughput.',
  ];
  writeBenchSection(repoRoot, 'faults', lines.join('\n'));
  console.log(lines.join('\n'));
  console.log(JSON.stringify({ referenceRate, rounds }));
} finally {
  await fx?.destroy();
}

import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { withCobLock } from '@bank/books';
import { acquireLeaderLock, isServiceUnavailable } from '@bank/platform';
import { startHaPostgres, type HaNode, type HaPostgres } from '@bank/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRecord, createFaultBank, INITIAL_DOLLARS, repoRoot, sleep, waitForQuiet, type FaultBank } from './faultHarness';
import { answerCounts, finalAnswer, keyedTransferLoad, type KeyedTransfer } from './keyedLoad';
import { expectEachTransferOnce } from './keyedExpectations';

const exec = promisify(execFile);

/**
 * The database server lost: the bank (real processes, one DATABASE_URL) on a highly available PostgreSQL of its own
 * — Patroni managing a primary and two synchronous standbys, etcd, HAProxy as the one endpoint (services/testkit
 * haPostgres.ts) — under a transfer load of 8 in flight, each transfer with its Idempotency-Key and retried with it
 * while its outcome is unknown.
 *
 *   Primary killed (SIGKILL of its postmaster): Patroni promotes the synchronous standby furthest ahead, and the
 *   other one follows it and acknowledges its commits; the bank's pools drop the dead connections and reconnect
 *   through the same endpoint, its leaders (transfer process, projector, checkpoint writer) take their locks again on
 *   the new primary, nothing is restarted. Every transfer answered 201 is on the new primary exactly once, every
 *   retried one ends exactly once, money is conserved, audit:verify is clean.
 *
 *   Standbys gone (each one's Patroni and postmaster killed), with synchronous_mode_strict: with one lost, the other
 *   acknowledges alone; with both lost, commits wait for a standby rather than being acknowledged unreplicated; the
 *   bank answers 503 at its request deadline, never 201 for a transfer sent while they are gone; when one is back the
 *   waiting commits complete and traffic resumes.
 *
 *   Leader locks (projector, transfer process, checkpoint writer) and the COB lock: taken on the primary, never on a
 *   standby, whose advisory locks exclude no one on the primary.
 *
 *   Planned switchover (Patroni's REST API): no 500 (a write that reaches the demoted primary is 503), every
 *   transfer once, writes continue on the candidate, the old primary rejoins as a synchronous standby.
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

/**
 * Every transfer ended 201 once with one transfer id; once the bank is quiet, the read models hold exactly one more
 * transfer per key than `transfersBefore`, each credited, and the money is all still there.
 */
async function expectTransfersRecordedOnce(transfers: readonly KeyedTransfer[], transfersBefore: number): Promise<void> {
  expectEachTransferOnce(transfers);
  await waitForQuiet(fx.pool, 60_000);
  const { rows: after } = await fx.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM rm.transfers');
  expect(Number(after[0]!.n) - transfersBefore, await missingTransfers(transfers)).toBe(transfers.length);
  const record = await checkRecord(fx, transfers.map((t) => ({ ...finalAnswer(t), key: t.key })));
  expect(BigInt(record.total)).toBe(BigInt(fx.customers.length * INITIAL_DOLLARS * 100));
}

/** The transfers answered 201 that the read models lack, each with the events the log holds for it (for a failure's message). */
async function missingTransfers(transfers: readonly KeyedTransfer[]): Promise<string> {
  const ids = transfers.flatMap((t) => (finalAnswer(t).transferId ? [finalAnswer(t).transferId!] : []));
  const { rows } = await fx.pool.query<{ id: string; events: string | null }>(
    `SELECT t.id, (SELECT string_agg(e.type || ' at ' || e.transaction_id || ':' || e.global_position, ', ' ORDER BY e.global_position)
                     FROM eventstore.events e WHERE e.data->>'transferId' = t.id::text) AS events
       FROM unnest($1::uuid[]) AS t(id) WHERE NOT EXISTS (SELECT 1 FROM rm.transfers r WHERE r.id = t.id)`,
    [ids],
  );
  const { rows: checkpoint } = await fx.pool.query<{ position: string }>(`SELECT position FROM rm.checkpoint WHERE name = 'main'`);
  const missing = rows.map((row) => `${row.id} (${transfers.find((t) => finalAnswer(t).transferId === row.id)?.answers.map((a) => a.status).join('→')}): ${row.events ?? 'no event'}`);
  return `transfers answered 201 and missing from rm.transfers: ${missing.join('; ') || 'none'}; projector at ${checkpoint[0]?.position ?? 'nothing'}`;
}

/** The lines of a node's Patroni log that say how it handled its server's crash (failover or restart in place). */
function haDecisions(ha: HaPostgres, node: HaNode): string {
  const log = path.join(ha.dir, `${node.name}.log`);
  if (!existsSync(log)) return `(no log at ${log})`;
  // Patroni's own lines (PostgreSQL's log goes to the same file): its HA loop's decisions and what they rested on.
  const patroni = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (INFO|WARNING|ERROR|CRITICAL):/;
  const wanted = /crash|fail|lag|healthy|wal_position|timeline|Member|Got response|demot|promot|restart|starting/i;
  return readFileSync(log, 'utf8').split('\n').filter((line) => patroni.test(line) && wanted.test(line)).slice(-30).join('\n');
}

describe('the database server lost', () => {
  it('the leader and COB locks are taken on the primary, never on a standby (whose locks exclude no one on the primary)', async () => {
    const primary = await fx.postgres.waitHealthy();
    const standby = fx.postgres.nodes.find((node) => node !== primary)!;
    const direct = new pg.Client({ connectionString: fx.postgres.directUrl(standby, 'postgres') });
    await direct.connect();
    const { rows } = await direct.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
    await direct.end();
    expect(rows[0]!.standby).toBe(true);
    const tryFor = async (node: HaNode, ms: number) => {
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(), ms);
      const session = await acquireLeaderLock({ connection: { connectionString: fx.postgres.directUrl(node, 'postgres') }, lockClass: 'test.ha', name: 'standby-check', retryMs: 50, signal: stop.signal });
      clearTimeout(timer);
      await session?.release();
      return session !== undefined;
    };
    expect(await tryFor(standby, 1_500), 'a lock taken on the standby').toBe(false);
    expect(await tryFor(primary, 10_000), 'the lock taken on the primary').toBe(true);
    // The COB lock: refused on the standby with an error the API answers 503; taken on the primary.
    const onStandby = withCobLock({ connectionString: fx.postgres.directUrl(standby, 'postgres') }, true, async () => 'ran');
    await expect(onStandby).rejects.toMatchObject({ code: '25006' });
    expect(isServiceUnavailable(await onStandby.catch((error: unknown) => error))).toBe(true);
    expect(await withCobLock({ connectionString: fx.postgres.directUrl(primary, 'postgres') }, true, async () => 'ran')).toEqual({ ran: true, value: 'ran' });
  });

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
    expect(recoveredAt! - killedAt, `writes back after the kill; the nodes' Patroni said:\n${fx.postgres.nodes.map((node) => `${node.name}:\n${haDecisions(fx.postgres, node)}`).join('\n')}`).toBeLessThan(15_000);
    expect(after?.name, `the standby took over; the old primary's Patroni said:\n${haDecisions(fx.postgres, before)}`).not.toBe(before.name);
    expect(fx.bank.child.exitCode).toBeNull();
    // While the primary is gone a transfer is answered 503 (retry with the same key) or waits until a server takes
    // writes again (a quick failover: then none is 503), or its client stops waiting (0) and retries; never a 500 or
    // any other status.
    expect(Object.keys(counts).filter((status) => !['201', '503', '0'].includes(status))).toEqual([]);
    // Every transfer ended (201 first time or after retries with its key), always with the same transfer.
    expectEachTransferOnce(transfers);
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
    // The old primary rejoins as a synchronous standby (pg_rewind): the cluster is whole again for the next test.
    const rejoinStart = Date.now();
    await fx.postgres.waitHealthy(30_000);
    console.log(`primary killed: the old primary rejoined as a synchronous standby ${Date.now() - rejoinStart} ms after the check began`);
  });

  it('standbys gone: one lost, the other acknowledges alone; both lost, commits wait (503 at the deadline, never 201 unreplicated), then resume when one is back', async () => {
    // The bank again with a request deadline of 4 s (production: REQUEST_DEADLINE_MS, 8 s), so the outage shows sooner.
    await fx.bank.stop(20_000);
    await fx.restart(undefined, { REQUEST_DEADLINE_MS: '4000' });
    const primary = await fx.postgres.waitHealthy();
    const [spare, standby] = fx.postgres.nodes.filter((node) => node !== primary) as [HaNode, HaNode];
    const { rows: before } = await fx.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM rm.transfers');
    const load = keyedTransferLoad(() => fx.bank.baseUrl, fx.customers, 8);
    await sleep(1_500);
    const direct = new pg.Client({ connectionString: fx.postgres.directUrl(primary, 'postgres') });
    await direct.connect();
    const synchronousStandbys = async () => {
      const { rows } = await direct.query<{ name: string }>(`SELECT application_name AS name FROM pg_stat_replication WHERE sync_state = 'sync' ORDER BY 1`);
      return rows.map((row) => row.name);
    };
    // One standby lost: Patroni takes it out of the synchronous set, and the other one acknowledges the commits alone.
    await fx.postgres.stopNode(spare);
    const spareGoneAt = Date.now();
    let aloneAt: number | undefined;
    while (aloneAt === undefined && Date.now() < spareGoneAt + 30_000) {
      await sleep(100);
      aloneAt = load.transfers.flatMap((t) => t.answers).find((a) => a.status === 201 && a.at - a.ms > spareGoneAt)?.at;
    }
    expect(aloneAt, `a transfer sent after ${spare.name} was lost answered 201 (${standby.name} acknowledging alone)`).toBeDefined();
    expect(await synchronousStandbys()).toEqual([standby.name]);
    // The other one lost too: from the moment the primary has no synchronous standby streaming, every commit waits.
    await fx.postgres.stopNode(standby);
    let goneAt = Date.now();
    for (;;) {
      const names = await synchronousStandbys();
      goneAt = Date.now();
      if (names.length === 0) break;
      await sleep(20);
    }
    await sleep(9_000);
    // While they are gone: commits wait in SyncRep on the primary (not acknowledged), the bank answers 503.
    const { rows: waiting } = await direct.query<{ n: string }>(`SELECT count(*)::text AS n FROM pg_stat_activity WHERE wait_event = 'SyncRep'`);
    await direct.end();
    const whileGone = load.transfers.flatMap((t) => t.answers).filter((a) => a.at - a.ms > goneAt);
    // The transfers whose request (the payer's debit) other sessions can see now, with the standby still gone: a
    // commit waiting for the standby is not visible, so each of these was replicated before it was lost. A retry of
    // one of them (its first answer a 503 while it waited for the payee's credit) answers 201 from the stored debit,
    // appending nothing: that is the first result, not an unreplicated commit.
    const { rows: debited } = await fx.pool.query<{ id: string }>(`SELECT DISTINCT data->>'transferId' AS id FROM eventstore.events WHERE type = 'AccountDebited' AND data ? 'transferId'`);
    const replicated = new Set(debited.map((row) => row.id));
    fx.postgres.startNode(standby);
    const backAt = Date.now();
    let resumedAt: number | undefined;
    while (resumedAt === undefined && Date.now() < backAt + 60_000) {
      await sleep(100);
      resumedAt = load.transfers.flatMap((t) => t.answers).find((a) => a.status === 201 && a.at > backAt)?.at;
    }
    await sleep(1_000);
    fx.postgres.startNode(spare);
    const transfers = await load.stop(60_000);
    const counts = answerCounts(transfers);
    const slowest = Math.max(...whileGone.map((a) => a.ms));
    console.log(
      `standbys gone: ${transfers.length} transfers; answers ${JSON.stringify(counts)}; one gone: writes acknowledged by the other ${aloneAt! - spareGoneAt} ms after; ` +
        `both gone: ${whileGone.length} answers ${JSON.stringify(answerCounts([{ key: 'gone', answers: whileGone }]))}, slowest ${slowest} ms, ${waiting[0]!.n} commits waiting in SyncRep; ` +
        `writes back ${resumedAt === undefined ? 'never' : `${resumedAt - backAt} ms`} after one standby was started again`,
    );
    expect(Number(waiting[0]!.n)).toBeGreaterThan(0);
    expect(whileGone.length).toBeGreaterThan(0);
    // Never 201 for a commit no standby has: a request sent after the primary lost its last synchronous standby and
    // answered before one came back is 201 only for a transfer whose debit was replicated before the loss.
    const unreplicated = whileGone.filter((a) => a.status === 201 && !(a.transferId && replicated.has(a.transferId)));
    expect(unreplicated.map((a) => ({ ...a, sentAfterLossMs: a.at - a.ms - goneAt }))).toEqual([]);
    expect(whileGone.every((a) => a.status === 503 || a.status === 409 || a.status === 201)).toBe(true);
    expect(whileGone.some((a) => a.status === 503)).toBe(true);
    // Answered at the bank's request deadline (4 s here), not held.
    expect(slowest).toBeLessThan(6_000);
    expect(resumedAt, 'a transfer answered 201 after a standby came back').toBeDefined();
    expect(fx.bank.child.exitCode).toBeNull();
    expect(counts[500] ?? 0).toBe(0);
    await expectTransfersRecordedOnce(transfers, Number(before[0]!.n));
  });

  it('planned switchover under load (Patroni REST): no 500, every transfer once, writes continue on the candidate', async () => {
    const leader = await fx.postgres.waitHealthy();
    const candidate = fx.postgres.nodes.find((node) => node !== leader)!;
    const { rows: before } = await fx.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM rm.transfers');
    const load = keyedTransferLoad(() => fx.bank.baseUrl, fx.customers, 8);
    await sleep(1_500);
    const switchedAt = Date.now();
    const answer = await fetch(`http://127.0.0.1:${leader.restPort}/switchover`, { method: 'POST', body: JSON.stringify({ leader: leader.name, candidate: candidate.name }) });
    expect(answer.status, await answer.text()).toBe(200);
    let resumedAt: number | undefined;
    while (resumedAt === undefined && Date.now() < switchedAt + 30_000) {
      await sleep(100);
      if ((await fx.postgres.primary())?.name !== candidate.name) continue;
      resumedAt = load.transfers.flatMap((t) => t.answers).find((a) => a.status === 201 && a.at - a.ms > switchedAt)?.at;
    }
    await sleep(1_500);
    const transfers = await load.stop(60_000);
    const counts = answerCounts(transfers);
    console.log(`switchover: ${transfers.length} transfers; answers ${JSON.stringify(counts)}; ${leader.name} → ${candidate.name}; writes after the switchover ${resumedAt === undefined ? 'never' : `${resumedAt - switchedAt} ms`}`);
    expect(resumedAt, 'a transfer sent after the switchover answered 201 on the candidate').toBeDefined();
    expect(counts[500] ?? 0).toBe(0);
    await expectTransfersRecordedOnce(transfers, Number(before[0]!.n));
    await fx.postgres.waitHealthy(30_000);
  });
});

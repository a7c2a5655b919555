import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_PASSWORD, call } from '../bench/lib/bankClient';
import { checkRecord, createFaultBank, INITIAL_DOLLARS, sleep, transferLoad, waitForQuiet, type Attempt, type FaultBank } from './faultHarness';

/**
 * The bank under a transfer load while its services fail and its processes are stopped — real processes and real
 * servers (private PostgreSQL and Redis, stopped and started with the machine's own commands):
 *   PostgreSQL restarted: 503 while it is down, the bank recovers by itself;
 *   Redis stopped and started empty: 503 while it is down (never 500), the bank recovers by itself;
 *   the bank killed with SIGKILL and started again: nothing acknowledged is lost;
 *   SIGTERM: requests in flight finish before the process exits;
 *   a rolling restart of two API processes behind one port: no 500, and no connection a client's retry would not cover.
 * After each: every 201 transfer credited exactly once, money conserved.
 */
let fx: FaultBank;

beforeAll(async () => {
  fx = await createFaultBank({ customers: 16 });
}, 240_000);

afterAll(async () => {
  await fx?.destroy();
}, 60_000);

const statuses = (attempts: readonly Attempt[]) => attempts.reduce<Record<number, number>>((m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }), {});

async function expectConserved(attempts: readonly Attempt[]): Promise<void> {
  await waitForQuiet(fx.pool, 90_000);
  const { credited201, total } = await checkRecord(fx, attempts);
  expect(credited201).toBeGreaterThan(0);
  expect(BigInt(total)).toBe(BigInt(fx.customers.length * INITIAL_DOLLARS * 100));
}

describe('the bank under faults', () => {
  it('PostgreSQL restarted under load: 503 while it is down, no 500, the bank recovers without a restart', async () => {
    const load = transferLoad(() => fx.bank.baseUrl, fx.customers, 8);
    await sleep(2_000);
    await fx.postgres.stop();
    await sleep(4_000);
    await fx.postgres.start();
    const restartedAt = Date.now();
    await sleep(6_000);
    const attempts = await load.stop();
    expect(fx.bank.child.exitCode).toBeNull();
    const counts = statuses(attempts);
    expect(counts[500] ?? 0).toBe(0);
    expect(counts[503] ?? 0).toBeGreaterThan(0);
    expect(attempts.some((a) => a.status === 201 && a.at > restartedAt + 1_000)).toBe(true);
    expect(Object.keys(counts).every((status) => ['0', '201', '503'].includes(status))).toBe(true);
    await expectConserved(attempts);
  }, 180_000);

  it('Redis stopped and started empty under load: 503 while it is down, never 500, it recovers, and a signed-out token stays out', async () => {
    const customer = fx.customers[1]!;
    const session = await call<{ token: string }>(fx.bank.baseUrl, 'POST', '/auth/signin', { body: { email: customer.email, password: BENCH_PASSWORD } });
    expect(session.status).toBe(200);
    const me = () => call(fx.bank.baseUrl, 'GET', '/user/me', { token: session.body.token });
    expect((await me()).status).toBe(200);
    expect((await call(fx.bank.baseUrl, 'POST', '/auth/signout', { token: session.body.token })).status).toBe(200);
    expect((await me()).status).toBe(401);
    const load = transferLoad(() => fx.bank.baseUrl, fx.customers, 8);
    await sleep(2_000);
    await fx.redis.stop();
    const down = await call(fx.bank.baseUrl, 'POST', '/auth/signin', { body: { email: fx.customers[0]!.email, password: 'wrong-password-1' } });
    expect(down.status).toBe(503);
    await sleep(3_000);
    await fx.redis.start();
    const restartedAt = Date.now();
    await sleep(6_000);
    const attempts = await load.stop();
    const counts = statuses(attempts);
    expect(counts[500] ?? 0).toBe(0);
    expect(attempts.some((a) => a.status === 201 && a.at > restartedAt + 1_000)).toBe(true);
    // Revocations are durable (PostgreSQL), not a Redis cache that an empty restart forgets.
    expect((await me()).status).toBe(401);
    await expectConserved(attempts);
  }, 180_000);

  it('killed with SIGKILL under load and started again: nothing acknowledged is lost', async () => {
    const load = transferLoad(() => fx.bank.baseUrl, fx.customers, 8);
    await sleep(3_000);
    process.kill(-fx.bank.child.pid!, 'SIGKILL');
    await sleep(500);
    await fx.restart();
    await sleep(3_000);
    const attempts = await load.stop();
    expect(statuses(attempts)[500] ?? 0).toBe(0);
    await expectConserved(attempts);
  }, 240_000);

  it('SIGTERM under load: the requests in flight are answered, then the process exits', async () => {
    const load = transferLoad(() => fx.bank.baseUrl, fx.customers, 8);
    await sleep(3_000);
    const exit = new Promise<number | null>((resolve) => fx.bank.child.once('exit', (code) => resolve(code)));
    const stopping = fx.bank.stop(20_000);
    const attempts = await load.stop();
    await stopping;
    expect(await exit).toBe(0);
    // Requests sent before the signal were all answered: the only failures are refused connections after it.
    const counts = statuses(attempts);
    expect(counts[500] ?? 0).toBe(0);
    expect(attempts.filter((a) => a.status === 0 && !/ECONNREFUSED/.test(a.error ?? ''))).toEqual([]);
    await fx.restart();
    await expectConserved(attempts);
  }, 240_000);

  it('a rolling restart of two API processes behind one port: no 500, every request answered', async () => {
    await fx.bank.stop(20_000);
    await fx.restart('node --import tsx services/runtime/src/main.ts cluster', { BANK_API_PROCESSES: '2' });
    const load = transferLoad(() => fx.bank.baseUrl, fx.customers, 8);
    await sleep(3_000);
    process.kill(fx.bank.child.pid!, 'SIGHUP');
    await sleep(15_000);
    const attempts = await load.stop();
    const counts = statuses(attempts);
    expect(counts[500] ?? 0).toBe(0);
    expect(counts[503] ?? 0).toBe(0);
    // A connection closed by a process leaving is retried with the same key: the second try always succeeds.
    const unanswered = attempts.filter((a) => a.status === 0).map((a) => a.key);
    for (const key of unanswered) expect(attempts.some((a) => a.key === key && a.status === 201)).toBe(true);
    await expectConserved(attempts);
  }, 240_000);
});

import net from 'node:net';
import { CONNECT_TIMEOUT_MS, createPool, isServiceUnavailable, STALL_PROBE_MS, watchStalledConnections } from '@bank/platform';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * The pools' defences against a server that stops answering (services/platform: stalledConnections.ts, createPool's
 * connect timeout), against a real PostgreSQL behind a relay (here, not in platform: testkit depends on platform).
 */

/**
 * A TCP relay to the test's PostgreSQL that can go silent: while silent it forwards nothing either way and answers
 * nothing (new connections are accepted and then ignored), as a server behind a network that drops packets looks to
 * the application.
 */
async function silenceableRelay(target: URL) {
  let silent = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    sockets.add(inbound);
    inbound.on('error', () => undefined);
    inbound.on('close', () => sockets.delete(inbound));
    if (silent) return;
    const outbound = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(outbound);
    outbound.on('error', () => inbound.destroy());
    outbound.on('close', () => {
      sockets.delete(outbound);
      inbound.destroy();
    });
    inbound.on('close', () => outbound.destroy());
    inbound.on('data', (chunk) => void (silent || outbound.write(chunk)));
    outbound.on('data', (chunk) => void (silent || inbound.write(chunk)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  const url = new URL(target.toString());
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    silence: (on: boolean) => void (silent = on),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let database: TestDatabase;
let relay: Awaited<ReturnType<typeof silenceableRelay>>;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  database = await createTestDatabase('stalled_connections');
  relay = await silenceableRelay(new URL(database.url));
});

afterEach(async () => {
  relay.silence(false);
  await Promise.all(pools.splice(0).map((pool) => pool.end().catch(() => undefined)));
});

afterAll(async () => {
  await relay?.close();
  await database?.drop();
});

/** A pool of two behind the relay, watched with a stall bound of 300 ms and the probe's bound given (500 ms by default). */
function watchedPool(probeMs = 500) {
  const pool = new pg.Pool({ connectionString: relay.url, max: 2 });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  pools.push(pool);
  const destroyed: number[] = [];
  watchStalledConnections(pool, { stallMs: 300, probeMs, onDestroyed: (n) => destroyed.push(n) });
  return { pool, destroyed };
}

describe('watchStalledConnections', () => {
  it('destroys a connection whose query waits on a server that stopped answering, freeing its slot', async () => {
    const { pool, destroyed } = watchedPool();
    await pool.query('SELECT 1');
    relay.silence(true);
    const started = Date.now();
    const stalled = pool.query('SELECT 1').then(
      () => 'answered',
      (error: Error) => error.message,
    );
    expect(await stalled).toMatch(/Connection terminated/);
    // Found within the check interval, the stall bound and the probe's bound.
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(destroyed).toEqual([1]);
    relay.silence(false);
    const { rows } = await pool.query<{ n: number }>('SELECT 2 AS n');
    expect(rows[0]!.n).toBe(2);
  });

  it('leaves a client merely held (no query waiting on it) alone while the server is silent', async () => {
    const { pool, destroyed } = watchedPool();
    const client = await pool.connect();
    try {
      await client.query('SELECT 1');
      relay.silence(true);
      // Longer than the stall bound and the probe's: a held client is not a stalled query, so no probe runs.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(destroyed).toEqual([]);
      relay.silence(false);
      const { rows } = await client.query<{ n: number }>('SELECT 3 AS n');
      expect(rows[0]!.n).toBe(3);
    } finally {
      client.release();
    }
  });

  it('leaves a long query alone while the server answers the probe', async () => {
    // The probe opens a connection of its own: on a loaded host that took more than 500 ms (a CI run, load 6–7), and a
    // server that answers late is not a silent one. The bound here is the production pools' (STALL_PROBE_MS).
    // The query outlasts the probe's bound, so a probe that never answered would have it destroyed.
    const { pool, destroyed } = watchedPool(STALL_PROBE_MS);
    const { rows } = await pool.query<{ done: boolean }>('SELECT true AS done FROM pg_sleep($1)', [(STALL_PROBE_MS + 1_500) / 1000]);
    expect(rows[0]!.done).toBe(true);
    expect(destroyed).toEqual([]);
  });

  it("createPool's connections give up connecting to a silent server after CONNECT_TIMEOUT_MS, as SQLSTATE 08001 (503)", async () => {
    relay.silence(true);
    const pool = createPool(relay.url, 1);
    pools.push(pool);
    const started = Date.now();
    const error = await pool.query('SELECT 1').then(
      () => undefined,
      (failure: unknown) => failure as Error & { code?: string },
    );
    expect(error?.code).toBe('08001');
    expect(isServiceUnavailable(error)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 100);
    expect(Date.now() - started).toBeLessThan(CONNECT_TIMEOUT_MS + 3_000);
  });
});

import pg from 'pg';
import { startHaPostgres, type HaPostgres } from '@bank/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_PIN, call } from '../bench/lib/bankClient';
import { READ_POOL_APPLICATION_NAME } from '../src/startBank';
import { createFaultBank, type FaultBank } from './faultHarness';

/**
 * Reads from a replica (DATABASE_READ_URL): the bank on a Patroni cluster of its own whose standbys apply the WAL
 * 500 ms late (recovery_min_apply_delay), DATABASE_URL on the primary's endpoint and DATABASE_READ_URL on the
 * standbys' (HAProxy). A customer's transfer read back with X-Consistent-Position always shows it (the wait reads the
 * projector's checkpoint on a standby, which replicates with the rows); the GET routes' connections are on the
 * standbys, none on the primary.
 */
const APPLY_DELAY_MS = 500;
const ROUNDS = 4;
let fx: FaultBank<HaPostgres>;

beforeAll(async () => {
  fx = await createFaultBank({
    customers: 2,
    postgres: async () => {
      const ha = await startHaPostgres({ applyDelayMs: APPLY_DELAY_MS });
      await ha.waitHealthy();
      return ha;
    },
    env: (ha: HaPostgres) => ({ DATABASE_READ_URL: ha.databaseReadUrl('bank') }),
  });
}, 240_000);

afterAll(async () => {
  await fx?.destroy();
}, 60_000);

async function readPoolConnections(url: string): Promise<{ recovery: boolean; connections: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ recovery: boolean; n: string }>(
      `SELECT pg_is_in_recovery() AS recovery, (SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND datname = 'bank')::text AS n`,
      [READ_POOL_APPLICATION_NAME],
    );
    return { recovery: rows[0]!.recovery, connections: Number(rows[0]!.n) };
  } finally {
    await client.end();
  }
}

describe('reads from a replica 500 ms behind', () => {
  it('a transfer read back with X-Consistent-Position always shows it; the reads are on the standbys', async () => {
    const [payer, payee] = fx.customers;
    const baseUrl = fx.bank.baseUrl;
    const waits: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const transfer = await call<{ data: { _id: string } }>(baseUrl, 'POST', '/transaction/transfer', {
        token: payer!.token,
        body: { from: 'checking', amount: 1, accountNumber: payee!.accountNumber, bankName: 'Summit Bank', routingNumber: '102000021', accountType: 'checking', to: 'x', paymentPin: BENCH_PIN },
      });
      expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);
      const position = transfer.headers.get('x-event-position');
      expect(position).toMatch(/^\d+$/);
      const sent = Date.now();
      const [recent, complete] = await Promise.all([
        call<{ data: { _id: string }[] }>(baseUrl, 'GET', '/transaction', { token: payer!.token, headers: { 'X-Consistent-Position': position! } }),
        call<{ data: { _id: string }[] }>(baseUrl, 'GET', '/transaction/complete?limit=50', { token: payer!.token, headers: { 'X-Consistent-Position': position! } }),
      ]);
      waits.push(Date.now() - sent);
      for (const read of [recent, complete]) {
        expect(read.status).toBe(200);
        expect(read.headers.get('x-stale')).toBeNull();
        expect(read.body.data.map((t) => t._id)).toContain(transfer.body.data._id);
      }
      // Without the header the read may lag (not asserted either way): it is answered, from the standby.
      const plain = await call<{ data: unknown[] }>(baseUrl, 'GET', '/transaction/complete?limit=50', { token: payer!.token });
      expect(plain.status).toBe(200);
    }
    const primary = await fx.postgres.primary();
    expect(primary).toBeDefined();
    // HAProxy spreads the read pool's connections over the standbys.
    const standbys = fx.postgres.nodes.filter((node) => node.name !== primary!.name);
    const onStandbys = await Promise.all(standbys.map((node) => readPoolConnections(fx.postgres.directUrl(node, 'postgres'))));
    const onPrimary = await readPoolConnections(fx.postgres.directUrl(primary!, 'postgres'));
    console.log(`read replica (apply delay ${APPLY_DELAY_MS} ms): consistent reads answered in ${waits.join(', ')} ms; read-pool connections: standbys ${onStandbys.map((s) => s.connections).join(' + ')}, primary ${onPrimary.connections}`);
    expect(onStandbys.map((s) => s.recovery)).toEqual(standbys.map(() => true));
    expect(onStandbys.reduce((sum, s) => sum + s.connections, 0)).toBeGreaterThan(0);
    expect(onPrimary.recovery).toBe(false);
    expect(onPrimary.connections).toBe(0);
  });
});

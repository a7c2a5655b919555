import { addDays } from '@bank/domain';
import { utcDate } from '@bank/platform';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionsHarness } from '../transactions/testing/transactionsHarness';
import { createStandingOrderAuditApp, type StandingOrderAuditApp } from './testing/standingOrderAuditApp';
import type { AuditMismatch } from '@bank/audit';
import type { VerifyReport } from '@bank/audit';

/**
 * GET /audit/verify (the verifier `npm run audit:verify` runs too) compares rm.standing_orders with the replay of every
 * order's stream (docs/audit.md, Verification), on the real command handler, projector and worker.
 */
let a: StandingOrderAuditApp;
let h: TransactionsHarness;
const today = utcDate(new Date());
let paidOrderId = '';
let futureOrderId = '';

async function verify(): Promise<VerifyReport> {
  await h.settle();
  const res = await request(a.app).get('/api/audit/verify');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as VerifyReport;
}

const orderMismatches = (report: VerifyReport): AuditMismatch[] => report.mismatches.filter((mismatch) => mismatch.stream.startsWith('standingOrder-'));

/** Runs `change` on rm.standing_orders and `check`, then puts every row back as it was (a consistent bank again). */
async function withTamperedOrders(change: () => Promise<void>, check: () => Promise<void>): Promise<void> {
  await h.settle();
  const client = await h.fx.pool.connect();
  try {
    await client.query('CREATE TEMP TABLE saved_orders AS SELECT * FROM rm.standing_orders');
    await change();
    await check();
  } finally {
    await client.query('DELETE FROM rm.standing_orders');
    await client.query('INSERT INTO rm.standing_orders SELECT * FROM saved_orders');
    await client.query('DROP TABLE saved_orders');
    client.release();
  }
}

beforeAll(async () => {
  a = await createStandingOrderAuditApp('standing_order_verify');
  h = a.h;
  const payer = await h.customer({ checkingCents: 500_00 });
  const payee = await h.customer();
  const weekday = ((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
  // Paid today at creation; and one whose first date is weeks away.
  paidOrderId = await a.createOrder(payer.token, payee.accountNumber, { frequency: 'weekly', day: weekday, firstDate: today, count: 3 }, 'Savings plan');
  futureOrderId = await a.createOrder(payer.token, payee.accountNumber, { frequency: 'monthly', day: 31, firstDate: addDays(today, 40) }, 'Rent');
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('GET /audit/verify with standing orders', () => {
  it('finds a consistent bank intact and counts the standing orders it compared', async () => {
    const report = await verify();
    expect(report.mismatches).toEqual([]);
    expect(report.ok).toBe(true);
    const { rows } = await h.fx.pool.query<{ count: string }>('SELECT count(*) FROM rm.standing_orders');
    expect(Number(rows[0]!.count)).toBe(2);
    expect(report.checked.standingOrders).toBe(2);
  });

  it('reports an order whose status or dates were changed in the read model, once per order with each field', async () => {
    await withTamperedOrders(
      async () => {
        await h.fx.pool.query(`UPDATE rm.standing_orders SET status = 'cancelled' WHERE id = $1`, [futureOrderId]);
        await h.fx.pool.query(`UPDATE rm.standing_orders SET last_occurrence_date = last_occurrence_date + 7, first_date = first_date + 1 WHERE id = $1`, [paidOrderId]);
      },
      async () => {
        const report = await verify();
        expect(report.ok).toBe(false);
        const mismatches = orderMismatches(report);
        expect(mismatches).toHaveLength(2);
        expect(mismatches).toContainEqual({
          kind: 'read_model',
          stream: `standingOrder-${futureOrderId}`,
          reason: 'standing_order_mismatch',
          message: `standingOrder-${futureOrderId}: status is cancelled in the read model, the replay of the events gives active`,
        });
        const paid = mismatches.find((mismatch) => mismatch.stream === `standingOrder-${paidOrderId}`);
        expect(paid).toMatchObject({ kind: 'read_model', reason: 'standing_order_mismatch' });
        expect(paid?.message).toContain(`first_date is ${addDays(today, 1)} in the read model, the replay of the events gives ${today}`);
        expect(paid?.message).toContain(`last_occurrence_date is ${addDays(today, 7)} in the read model, the replay of the events gives ${today}`);
      },
    );
    expect(orderMismatches(await verify())).toEqual([]);
  });

  it('reports an order deleted from the read model as missing, and a row without a stream as extra', async () => {
    const stray = '7f3e9c1a-1111-4222-8333-944455556666';
    await withTamperedOrders(
      async () => {
        await h.fx.pool.query(`DELETE FROM rm.standing_orders WHERE id = $1`, [paidOrderId]);
        await h.fx.pool.query(
          `INSERT INTO rm.standing_orders SELECT $2::uuid, payer_id, status, from_account, account_number, recipient_name, amount_cents,
             description, frequency, day, first_date, end_date, payment_count, created_at, last_occurrence_date, last_occurrence_status, last_position
           FROM rm.standing_orders WHERE id = $1`,
          [futureOrderId, stray],
        );
      },
      async () => {
        const report = await verify();
        expect(report.ok).toBe(false);
        expect(report.checked.standingOrders).toBe(3);
        expect(orderMismatches(report)).toEqual(
          expect.arrayContaining([
            { kind: 'read_model', stream: `standingOrder-${paidOrderId}`, reason: 'standing_order_missing', message: `standingOrder-${paidOrderId}: the order is missing from the read model (rm.standing_orders)` },
            { kind: 'read_model', stream: `standingOrder-${stray}`, reason: 'standing_order_extra', message: `standingOrder-${stray}: the read model (rm.standing_orders) holds an order the event store does not have` },
          ]),
        );
        expect(orderMismatches(report)).toHaveLength(2);
      },
    );
  });
});

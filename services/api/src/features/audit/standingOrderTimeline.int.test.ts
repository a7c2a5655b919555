import { addDays } from '@bank/domain';
import { utcDate } from '@bank/platform';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionsHarness } from '../transactions/testing/transactionsHarness';
import { createStandingOrderAuditApp, type StandingOrderAuditApp } from './testing/standingOrderAuditApp';

/**
 * A customer's audit timeline (GET /audit/users/:id/events) holds the events of their standing orders, read from the
 * event store, whether or not an order ever paid (docs/audit.md, The routes).
 */
let a: StandingOrderAuditApp;
let h: TransactionsHarness;
const today = utcDate(new Date());

interface TimelineEvent {
  stream: string;
  type: string;
  position: string;
  summary: string;
}

async function timeline(userId: string): Promise<TimelineEvent[]> {
  await h.settle();
  const res = await request(a.app).get(`/api/audit/users/${userId}/events`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as TimelineEvent[];
}

beforeAll(async () => {
  a = await createStandingOrderAuditApp('standing_order_timeline');
  h = a.h;
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('the audit timeline of a customer with standing orders', () => {
  it('shows an order created and cancelled before any payment, in order with the rest of the customer’s events', async () => {
    const customer = await h.customer({ checkingCents: 100_00 });
    const payee = await h.customer();
    const orderId = await a.createOrder(customer.token, payee.accountNumber, { frequency: 'monthly', day: 1, firstDate: addDays(today, 60) }, 'Gym');
    const cancelled = await request(a.app).delete(`/api/standing-orders/${orderId}`).set({ Authorization: `Bearer ${customer.token}` });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);

    const events = await timeline(customer.userId);
    const ofOrder = events.filter((event) => event.stream === `standingOrder-${orderId}`);
    expect(ofOrder.map((event) => event.type)).toEqual(['StandingOrderCreated', 'StandingOrderCancelled']);
    expect(ofOrder[0]!.summary).toContain('Standing order of $20.00 from checking');
    // In the global order with the customer's own events: after the opening deposit; nothing was paid.
    const positions = events.map((event) => BigInt(event.position));
    expect(positions).toEqual([...positions].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    expect(events.findIndex((event) => event.type === 'StandingOrderCreated')).toBeGreaterThan(events.findIndex((event) => event.stream === `account-${customer.userId}`));
    expect(events.some((event) => event.type === 'AccountDebited')).toBe(false);
  });

  it('shows a paid order’s occurrences with its payment', async () => {
    const customer = await h.customer({ checkingCents: 100_00 });
    const payee = await h.customer();
    const weekday = ((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
    const orderId = await a.createOrder(customer.token, payee.accountNumber, { frequency: 'weekly', day: weekday, firstDate: today, count: 2 }, 'Allowance');
    const events = await timeline(customer.userId);
    expect(events.filter((event) => event.stream === `standingOrder-${orderId}`).map((event) => event.type)).toEqual(['StandingOrderCreated', 'OccurrencePaid']);
    expect(events.some((event) => event.type === 'AccountDebited')).toBe(true);
  });

  it('leaves out an order the read model lists for the customer when its stream names another payer', async () => {
    const payer = await h.customer({ checkingCents: 100_00 });
    const payee = await h.customer();
    const other = await h.customer();
    const orderId = await a.createOrder(payer.token, payee.accountNumber, { frequency: 'monthly', day: 15, firstDate: addDays(today, 30) }, 'Lent');
    await h.settle();
    await h.fx.pool.query('UPDATE rm.standing_orders SET payer_id = $1 WHERE id = $2', [other.userId, orderId]);
    try {
      expect((await timeline(other.userId)).filter((event) => event.stream.startsWith('standingOrder-'))).toEqual([]);
    } finally {
      await h.fx.pool.query('UPDATE rm.standing_orders SET payer_id = $1 WHERE id = $2', [payer.userId, orderId]);
    }
  });
});

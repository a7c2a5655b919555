import { randomUUID } from 'node:crypto';
import { addDays, customerDecider, standingOrderDecider, streams } from '@bank/domain';
import { createCob, interestStep, standingOrdersStep } from '@bank/books';
import { manualClock, utcDate } from '@bank/platform';
import express, { type Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadState } from '../../commands/runCommand';
import { errorHandler } from '../../http/errorHandler';
import { loadCustomerHistory } from '../audit/customerHistory';
import { presentEvents } from '../audit/presentEvents';
import { jsonBody } from '../../http/jsonBody';
import { requestId } from '../../http/requestId';
import { createTransactionsHarness, TEST_PIN, type TransactionsHarness } from '../transactions/testing/transactionsHarness';
import { standingOrderShape } from './standingOrderShape';
import { createStandingOrdersRouter } from './standingOrdersRouter';

/** The standing-order routes on the real command handler, projector and worker (transfer process, runner). */
let h: TransactionsHarness;
let app: Express;
const now = new Date();
const today = utcDate(now);

beforeAll(async () => {
  // The worker's own COB waits an hour between ticks here (and nothing is due before today): what is paid, the routes paid.
  h = await createTransactionsHarness('standing_orders_api', { workerSettings: { COB_TICK_MS: 3_600_000 } });
  const deps = { ...h.deps, now: () => now };
  app = express();
  app.locals.deps = deps;
  app.use(requestId());
  app.use('/api', ...jsonBody());
  app.use('/api', createStandingOrdersRouter(deps));
  app.use(errorHandler(h.deps.logger));
});

afterAll(async () => {
  await h?.close();
});

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

function body(accountNumber: string, overrides: Record<string, unknown> = {}) {
  return { from: 'checking', amount: '12.50', accountNumber, accountType: 'savings', description: 'Rent', paymentPin: TEST_PIN, schedule: { frequency: 'monthly', day: 31, firstDate: addDays(today, 1) }, ...overrides };
}

describe('POST /standing-orders', () => {
  it('creates an order authorised by the payment pin from the schedule’s top-level fields; a first date of today is paid at once', async () => {
    const payer = await h.customer({ checkingCents: 100_00 });
    const payee = await h.customer();
    const weekday = ((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
    const res = await request(app)
      .post('/api/standing-orders')
      .set(auth(payer.token))
      .send(body(payee.accountNumber, { schedule: undefined, frequency: 'weekly', day: weekday, firstDate: today, count: 2 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.message).toBe('Standing order created');
    const order = standingOrderShape.parse(res.body.data);
    expect(order).toMatchObject({ status: 'active', amount: 12.5, recipientName: `${payee.firstName} ${payee.lastName}`, paymentsMade: 1 });
    expect(order.occurrences).toEqual([{ date: today, status: 'paid', transferId: expect.any(String), transactionId: expect.any(String) }]);
    // Weekly on today's weekday, two payments: the first was today, the second is in a week.
    expect(order.nextDate).toBe(addDays(today, 7));
    expect(res.headers['x-event-position']).toBeDefined();
    await h.settle();
    expect(await h.fx.balances(payer.userId)).toEqual({ savings: 0, checking: 87_50 });
    const transactions = [...(await h.fx.history(payer.userId)).transactions.values()];
    expect(transactions.map((tx) => [tx.kind, tx.description, tx.transferId])).toEqual([
      ['staff', 'Opening deposit', null],
      ['transfer', 'Standing order: Rent', order.occurrences[0]!.transferId],
    ]);
    // The occurrence's transaction id is the payer's row of the payment.
    expect(transactions.find((tx) => tx.transferId === order.occurrences[0]!.transferId)?.transactionId).toBe(order.occurrences[0]!.transactionId);

    // The audit timeline of the payer shows the order's events with the payment's.
    const history = await loadCustomerHistory(h.fx.store, payer.userId);
    const timeline = presentEvents(h.fx.store, payer.userId, history?.events ?? []);
    expect(history?.streams).toContain(`standingOrder-${order._id}`);
    expect(timeline.filter((event) => event.stream === `standingOrder-${order._id}`).map((event) => event.summary)).toEqual([
      `Standing order of $12.50 from checking to ${order.recipientName} (${payee.accountNumber}), weekly on day ${weekday} from ${today}`,
      `Standing order payment of ${today} made (transfer ${order.occurrences[0]!.transferId})`,
    ]);
  });

  it('answers the transfer’s own errors as a transfer does, and refuses bad schedules', async () => {
    const payer = await h.customer({ checkingCents: 100_00 });
    const payee = await h.customer();
    const post = (overrides: Record<string, unknown>) => request(app).post('/api/standing-orders').set(auth(payer.token)).send(body(payee.accountNumber, overrides));
    expect((await post({ paymentPin: '000000' })).body).toEqual({ message: 'Incorrect payment pin' });
    expect((await post({ amount: undefined })).body).toEqual({ message: 'Please fill all fields' });
    expect((await post({ accountNumber: payer.accountNumber, accountType: 'checking' })).body).toEqual({ message: 'You cannot transfer to the same account' });
    const badRouting = await post({ routingNumber: '021000022' });
    expect([badRouting.status, badRouting.body.message]).toEqual([422, 'Invalid routing number']);
    const toOtherBank = { accountNumber: '4000123456', bankName: 'Other Bank' };
    const noRouting = await post({ ...toOtherBank, routingNumber: '' });
    expect([noRouting.status, noRouting.body.message]).toEqual([422, 'Invalid routing number']);
    const longAccount = await post({ ...toOtherBank, accountNumber: '1234567890123456789', routingNumber: '021000021' });
    expect([longAccount.status, longAccount.body.message]).toEqual([422, 'Invalid account number']);
    const weekly9 = await post({ schedule: { frequency: 'weekly', day: 9, firstDate: today } });
    expect([weekly9.status, weekly9.body.message]).toEqual([422, 'Day must be 1 (Monday) to 7 (Sunday)']);
    const past = await post({ schedule: { frequency: 'monthly', day: 1, firstDate: addDays(today, -1) } });
    expect([past.status, past.body.message]).toEqual([422, 'First date cannot be in the past']);
    const noSchedule = await post({ schedule: undefined });
    expect([noSchedule.status, noSchedule.body.errors?.map((error: { path: string }) => error.path)]).toEqual([400, ['frequency', 'day', 'firstDate']]);
    const topLevelWeekly9 = await post({ schedule: undefined, frequency: 'weekly', day: 9, firstDate: today });
    expect([topLevelWeekly9.status, topLevelWeekly9.body.message]).toEqual([422, 'Day must be 1 (Monday) to 7 (Sunday)']);
    expect((await post({ amount: '0.5' })).status).toBe(400);
    expect((await post({ schedule: { frequency: 'daily', day: 1, firstDate: today } })).status).toBe(400);
    expect((await request(app).get('/api/standing-orders').set(auth(payer.token))).body).toEqual({ data: [] });
  });
});

describe('the close of business', () => {
  it('pays an order that falls due today at the close of today', async () => {
    const payer = await h.customer({ checkingCents: 100_00 });
    const payee = await h.customer();
    await h.worker!.cobRunner.ready;
    // An order for today made straight with the domain (not through the route, which would pay it itself), so only
    // the COB of today can pay it.
    const orderId = randomUUID();
    const { state: customer } = await loadState(h.deps, customerDecider, streams.customer(payer.userId));
    await h.fx.commands.execute({
      decider: standingOrderDecider,
      streamId: streams.standingOrder(orderId),
      decide: (state) =>
        standingOrderDecider.decide(
          {
            type: 'CreateStandingOrder',
            orderId,
            payerId: payer.userId,
            customer,
            recipient: { kind: 'internal', payeeId: payee.userId, name: 'Payee' },
            pinMatches: true,
            from: 'checking',
            amountCents: 30_00,
            accountNumber: payee.accountNumber,
            accountType: 'savings',
            schedule: { frequency: 'monthly', day: Number(today.slice(8, 10)), firstDate: today, count: 1 },
            today,
            now: now.toISOString(),
          },
          state,
        ),
      context: { metadata: { actorId: payer.userId, actorRole: 'customer' } },
      commandType: 'CreateStandingOrder',
    });
    await h.settle();
    // Today is still open: the worker's tick closes nothing and pays nothing.
    expect(await h.worker!.cobRunner.tick()).toEqual([]);
    expect(await h.fx.balances(payer.userId)).toEqual({ savings: 0, checking: 100_00 });
    // Tomorrow (a COB on a clock a day ahead, on the same commands, store and lock as the worker's): today closes, the
    // order is paid on its business date, and the day close covers the payment.
    const tomorrow = manualClock(`${addDays(today, 1)}T00:00:01.000Z`);
    const cob = createCob({
      mode: 'calendar',
      commands: h.fx.commands,
      store: h.fx.store,
      pool: h.fx.pool,
      clock: tomorrow,
      steps: {
        standingOrders: standingOrdersStep({ commands: h.fx.commands, pool: h.fx.pool, transfer: { signals: h.fx.signals, creditWaitMs: 0 }, clock: tomorrow, catchUpDays: 3 }),
        // No ACH file in this test: nothing to settle.
        achSettlement: async () => undefined,
        interest: interestStep({ commands: h.fx.commands, store: h.fx.store, pool: h.fx.pool, clock: tomorrow, projectorWaitMs: 30_000, paymentConcurrency: 4 }),
      },
    });
    expect(await cob.runDue()).toEqual([today]);
    expect(await h.fx.balances(payer.userId)).toEqual({ savings: 0, checking: 70_00 });
    const occurrences = (await h.fx.store.readStream(streams.standingOrder(orderId))).filter((event) => event.type === 'OccurrencePaid');
    expect(occurrences.map((event) => event.data.date)).toEqual([today]);
    const debit = (await h.fx.store.readStream(streams.account(payer.userId))).find((event) => event.type === 'AccountDebited' && event.data.transferId === occurrences[0]!.data.transferId);
    expect(debit?.data.businessDate).toBe(today);
    expect(await cob.runDue()).toEqual([]);
  });
});

describe('the customer’s orders', () => {
  it('are listed with status and next date, paused, resumed and cancelled by their payer only', async () => {
    const payer = await h.customer({ checkingCents: 100_00 });
    const payee = await h.customer();
    const other = await h.customer();
    const created = await request(app).post('/api/standing-orders').set(auth(payer.token)).send(body(payee.accountNumber)).expect(201);
    const id = created.body.data._id as string;
    const list = await request(app).get('/api/standing-orders').set(auth(payer.token)).expect(200);
    expect(list.body.data.map(standingOrderShape.parse)).toMatchObject([{ _id: id, status: 'active', nextDate: created.body.data.nextDate, occurrences: [] }]);
    expect(created.body.data.nextDate >= addDays(today, 1)).toBe(true);

    expect((await request(app).post(`/api/standing-orders/${id}/pause`).set(auth(other.token))).status).toBe(404);
    const paused = await request(app).post(`/api/standing-orders/${id}/pause`).set(auth(payer.token)).expect(200);
    expect(paused.body).toMatchObject({ message: 'Standing order paused', data: { status: 'paused', nextDate: null } });
    const resumed = await request(app).post(`/api/standing-orders/${id}/resume`).set(auth(payer.token)).expect(200);
    expect(resumed.body.data).toMatchObject({ status: 'active', nextDate: created.body.data.nextDate });
    const cancelled = await request(app).delete(`/api/standing-orders/${id}`).set(auth(payer.token)).expect(200);
    expect(cancelled.body).toMatchObject({ message: 'Standing order cancelled', data: { status: 'cancelled', nextDate: null } });
    const again = await request(app).post(`/api/standing-orders/${id}/resume`).set(auth(payer.token));
    expect([again.status, again.body.message]).toEqual([422, 'Standing order is cancelled']);
    expect((await request(app).delete(`/api/standing-orders/${randomUUID()}`).set(auth(payer.token))).status).toBe(404);
    expect((await request(app).get('/api/standing-orders').set(auth(other.token))).body).toEqual({ data: [] });

    const admin = await h.admin();
    const seen = await request(app).get(`/api/user/admin/${payer.userId}/standing-orders`).set(auth(admin.token)).expect(200);
    expect(seen.body.data).toMatchObject([{ _id: id, status: 'cancelled' }]);
    expect((await request(app).get(`/api/user/admin/${randomUUID()}/standing-orders`).set(auth(admin.token))).status).toBe(404);
    expect((await request(app).get(`/api/user/admin/${payer.userId}/standing-orders`).set(auth(payer.token))).status).toBe(403);
  });
});

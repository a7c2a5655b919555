import { bankEvent } from '@bank/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBatch } from '../runner/applyBatch';
import { migrateReadModels } from '../schema/migrateReadModels';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { mainBatchTarget } from '../testing/mainBatchTarget';
import { testId, toRecordedEvents } from '../testing/recordedEvents';

let db: ProjectorTestDatabase;
const order = testId(900);
const payer = testId(901);
const stream = `standingOrder-${order}`;
const at = (day: number) => new Date(Date.UTC(2025, 0, day, 9)).toISOString();

beforeAll(async () => {
  db = await createProjectorTestDatabase('standing_orders');
  await db.pool.query('DROP SCHEMA IF EXISTS rm CASCADE');
  await migrateReadModels(db.pool);
  await db.pool.query(`INSERT INTO rm.checkpoint (name) VALUES ('main')`);
});
afterAll(async () => {
  await db.close();
});

describe('rm.standing_orders', () => {
  it('holds each order with its status and latest occurrence, the same when applied twice', async () => {
    const events = toRecordedEvents([
      {
        stream,
        event: bankEvent('StandingOrderCreated', {
          orderId: order,
          payerId: payer,
          from: 'checking',
          accountNumber: '5555555555',
          bankName: '',
          routingNumber: '',
          accountType: 'savings',
          recipientName: 'Bob',
          amountCents: 5_000,
          description: 'Rent',
          schedule: { frequency: 'monthly', day: 31, firstDate: '2025-01-31', count: 12 },
          createdAt: at(2),
        }),
      },
      { stream, event: bankEvent('OccurrenceFailed', { orderId: order, date: '2025-01-31', reason: 'You do not have enough balance', occurredAt: at(31) }) },
      { stream, event: bankEvent('StandingOrderSuspended', { orderId: order, reason: 'three failures', occurredAt: at(31) }) },
      { stream, event: bankEvent('StandingOrderResumed', { orderId: order, resumedOn: '2025-02-01', occurredAt: at(32) }) },
      { stream, event: bankEvent('OccurrencePaid', { orderId: order, date: '2025-02-28', transferId: testId(902), occurredAt: at(59) }) },
      { stream, event: bankEvent('StandingOrderPaused', { orderId: order, occurredAt: at(60) }) },
    ]);
    const target = mainBatchTarget();
    const client = await db.pool.connect();
    try {
      await applyBatch(client, target, events, null);
      const { rows } = await client.query(
        `SELECT payer_id, status, amount_cents::int AS cents, frequency, day, to_char(first_date, 'YYYY-MM-DD') AS first, payment_count,
                to_char(last_occurrence_date, 'YYYY-MM-DD') AS last_date, last_occurrence_status FROM rm.standing_orders`,
      );
      const expected = { payer_id: payer, status: 'paused', cents: 5_000, frequency: 'monthly', day: 31, first: '2025-01-31', payment_count: 12, last_date: '2025-02-28', last_occurrence_status: 'paid' };
      expect(rows).toEqual([expected]);
      // The same events again (a replay from an older checkpoint) change nothing.
      await client.query(`UPDATE rm.checkpoint SET position = NULL, position_commit = NULL, position_prepare = NULL WHERE name = 'main'`);
      await applyBatch(client, target, events.slice(1), null);
      expect((await client.query(`SELECT status, last_occurrence_status FROM rm.standing_orders`)).rows).toEqual([{ status: 'paused', last_occurrence_status: 'paid' }]);
    } finally {
      client.release();
    }
  });
});

import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistoryBuilder } from '../../testing/historyBuilder';
import { appendLongHistory } from '../statements/testing/longHistory';
import { createStatementTestApp, type StatementTestApp } from '../statements/testing/statementTestApp';
import { AUDIT_EVENTS_PAGE, AUDIT_EVENTS_WHOLE } from './auditRouter';

/** A customer with more events than GET /audit/users/:id/events answers at once: a first page and a cursor. */
const POSTINGS = 1_200;
let t: StatementTestApp;
let userId = '';

beforeAll(async () => {
  t = await createStatementTestApp('customer_events_long');
  userId = await createHistoryBuilder(t.store).register(
    { firstName: 'Busy', lastName: 'Trader', email: `busy.${randomUUID()}@example.com`, accountNumber: '4000000888' },
    new Date('2025-02-01T00:00:00.000Z'),
  );
  await appendLongHistory(t.store, userId, POSTINGS, new Date('2025-03-01T00:00:00.000Z'));
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('GET /audit/users/:id/events for a customer with more than 1,000 events', () => {
  it('answers the first page and a cursor without limit, and the cursor leads through every event once', async () => {
    const first = await request(t.app).get(`/audit/users/${userId}/events`).expect(200);
    expect(first.body.data).toHaveLength(AUDIT_EVENTS_PAGE.defaultLimit);
    expect(typeof first.body.next).toBe('string');
    expect(Buffer.byteLength(JSON.stringify(first.body))).toBeLessThan(1_000_000);

    const seen = [...(first.body.data as { position: string }[])];
    let next: string | null = first.body.next as string;
    while (next) {
      const page = await request(t.app).get(`/audit/users/${userId}/events`).query({ cursor: next }).expect(200);
      seen.push(...(page.body.data as { position: string }[]));
      next = page.body.next as string | null;
    }
    expect(seen.length).toBeGreaterThan(AUDIT_EVENTS_WHOLE);
    expect(new Set(seen.map((event) => event.position)).size).toBe(seen.length);
    const positions = seen.map((event) => BigInt(event.position));
    expect(positions.every((position, i) => i === 0 || position > positions[i - 1]!)).toBe(true);
    // Registration, e-mail and number reservations, the account and every posting.
    expect(seen.filter((event) => (event as unknown as { type: string }).type === 'StaffTransactionPosted')).toHaveLength(POSTINGS);
  });
});

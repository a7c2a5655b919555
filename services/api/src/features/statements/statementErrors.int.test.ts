import { randomUUID } from 'node:crypto';
import { streams } from '@bank/domain';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistoryBuilder } from '../../testing/historyBuilder';
import { appendLongHistory } from './testing/longHistory';
import { createStatementTestApp, type StatementTestApp } from './testing/statementTestApp';

/** A stored event that does not fit its schema: the statement answers 422, or (once rows have left) is cut short. */
let t: StatementTestApp;
const query = { account: 'checking', from: '2025-03-01', to: '2025-03-31' };

async function customerWithBadEvent(postingsBefore: number): Promise<string> {
  const history = createHistoryBuilder(t.store);
  const userId = await history.register({ firstName: 'Bad', lastName: 'Record', email: `bad.${randomUUID()}@example.com`, accountNumber: String(5_000_000_000 + postingsBefore) }, new Date('2025-02-01T00:00:00.000Z'));
  await appendLongHistory(t.store, userId, postingsBefore, new Date('2025-03-02T00:00:00.000Z'));
  const at = '2025-03-20T00:00:00.000Z';
  await t.store.append(streams.account(userId), [{ id: randomUUID(), type: 'StaffTransactionPosted', data: { amountCents: 'lots' }, metadata: { occurredAt: at, schemaVersion: 1 } }], 'any');
  return userId;
}

beforeAll(async () => {
  t = await createStatementTestApp('statements_errors');
});

afterAll(async () => {
  await t?.close();
});

describe('a record that cannot be replayed', () => {
  it('answers 422 (JSON, and a download whose first rows had not left yet), without an attachment header', async () => {
    const userId = await customerWithBadEvent(3);
    for (const format of ['json', 'csv']) {
      const res = await request(t.app).get(`/audit/users/${userId}/statements`).query({ ...query, format }).expect(422);
      expect(res.body.message).toMatch(/^The record of this customer cannot be replayed: /);
      expect(res.headers['content-disposition']).toBeUndefined();
    }
  });

  it('cuts a download short once rows have left: the client never gets a complete file', async () => {
    const userId = await customerWithBadEvent(1_000);
    const outcome = await request(t.app)
      .get(`/audit/users/${userId}/statements`)
      .query({ ...query, format: 'csv' })
      .then(
        (res) => ({ complete: true, text: res.text }),
        (error: unknown) => ({ complete: false, text: String(error) }),
      );
    expect(outcome.complete, outcome.text.slice(0, 200)).toBe(false);
  });
});

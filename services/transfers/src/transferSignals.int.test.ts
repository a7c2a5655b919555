import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '@bank/platform';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import type pg from 'pg';
import { createTransferSignals, type TransferSignals } from './transferSignals';

let db: TestDatabase;
let pool: pg.Pool;
const opened: TransferSignals[] = [];

function signals(): TransferSignals {
  const created = createTransferSignals({ pool });
  opened.push(created);
  return created;
}

beforeAll(async () => {
  db = await createTestDatabase('transfer_signals');
  pool = createPool(db.url, 4);
});

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await pool?.end();
  await db?.drop();
});

const position = { commit: 12n, prepare: 34n };

describe('transfer outcome signals', () => {
  it('wake a waiter in the same process at once', async () => {
    const here = signals();
    const transferId = randomUUID();
    const waiter = here.expect(transferId);
    here.publish({ transferId, status: 'completed', position });
    expect(await waiter.wait(1_000)).toEqual({ transferId, status: 'completed', position });
  });

  it('reach a waiter in another process through the database, many at a time', async () => {
    const api = signals();
    const process = signals();
    const ids = Array.from({ length: 300 }, () => randomUUID());
    const waiters = ids.map((id) => api.expect(id));
    // Give the waiting side's LISTEN a moment to be in place (a waiter registered before its transfer's debit).
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const id of ids) process.publish({ transferId: id, status: 'failed', position });
    const outcomes = await Promise.all(waiters.map((w) => w.wait(5_000)));
    expect(outcomes.map((o) => o?.status)).toEqual(ids.map(() => 'failed'));
    expect(outcomes.map((o) => o?.transferId)).toEqual(ids);
  });

  it('answer undefined at the bound when no outcome comes, and forget a cancelled waiter', async () => {
    const here = signals();
    const started = Date.now();
    expect(await here.expect(randomUUID()).wait(100)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    const transferId = randomUUID();
    const cancelled = here.expect(transferId);
    cancelled.cancel();
    here.publish({ transferId, status: 'completed', position });
    expect(await cancelled.wait(50)).toBeUndefined();
  });
});

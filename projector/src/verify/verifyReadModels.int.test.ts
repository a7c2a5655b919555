import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startProjector } from '../runner/projectorRunner';
import { appendHistory } from '../testing/appendHistory';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { ids, sampleHistory } from '../testing/sampleHistory';
import { verifyReadModels } from './verifyReadModels';
import { untilHeadApplied } from '../testing/untilHeadApplied';

let db: ProjectorTestDatabase;

beforeAll(async () => {
  db = await createProjectorTestDatabase('verify_read_models');
  await appendHistory(db.store, sampleHistory());
});
afterAll(async () => {
  await db.close();
});
beforeEach(async () => {
  await db.pool.query('DROP SCHEMA IF EXISTS rm CASCADE');
  const projector = startProjector({ pool: db.pool, store: db.store });
  await projector.caughtUp;
  await untilHeadApplied(db.pool, db.store);
  await projector.stop();
});

describe('verifyReadModels', () => {
  it('finds the read models equal to the replay of every account', async () => {
    const result = await verifyReadModels({ pool: db.pool, store: db.store });
    expect(result).toMatchObject({ ok: true, checked: 2, mismatches: [] });
    expect(result.events).toBe(sampleHistory().length);
  });

  it('reports a balance, a transaction field, a missing and an extra transaction that differ', async () => {
    await db.pool.query(`UPDATE rm.accounts SET savings_cents = savings_cents + 1 WHERE user_id = $1`, [ids.ada]);
    await db.pool.query(`UPDATE rm.transactions SET status = 'completed' WHERE id = $1`, [ids.externalDebit]);
    await db.pool.query(`DELETE FROM rm.transactions WHERE id = $1`, [ids.internalCredit]);
    await db.pool.query(
      `INSERT INTO rm.transactions SELECT (md5('x')::uuid), user_id, account, direction, amount_cents, description, date, status,
         balance_after_cents, transfer_id, kind, event_type, actor_id, reason, reversed_by, reversal_of, refund_of, created_at,
         created_position, last_position FROM rm.transactions WHERE id = $1`,
      [ids.staffCredit],
    );
    const result = await verifyReadModels({ pool: db.pool, store: db.store });
    expect(result.ok).toBe(false);
    expect(result.mismatches).toEqual(
      expect.arrayContaining([
        { userId: ids.ada, stream: `account-${ids.ada}`, field: 'savings', expected: 98_000, actual: 98_001 },
        { userId: ids.ada, stream: `account-${ids.ada}`, field: `transactions[${ids.externalDebit}].status`, expected: 'failed', actual: 'completed' },
        { userId: ids.bob, stream: `account-${ids.bob}`, field: `transactions[${ids.internalCredit}]`, expected: 'present', actual: null },
        { userId: ids.ada, stream: `account-${ids.ada}`, field: 'transactions[9dd4e461-268c-8034-f5c8-564e155c67a6]', expected: null, actual: 'present' },
      ]),
    );
    expect(result.mismatches).toHaveLength(4);
  });
});

import type { Position } from '@bank/eventstore';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startProjector } from '../runner/projectorRunner';
import { appendHistory } from '../testing/appendHistory';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { ids, sampleHistory } from '../testing/sampleHistory';
import { verifyReadModels } from './verifyReadModels';
import { untilHeadApplied } from '../testing/untilHeadApplied';

let db: ProjectorTestDatabase;
let last: Position | undefined;

beforeAll(async () => {
  db = await createProjectorTestDatabase('verify_read_models');
  last = await appendHistory(db.store, sampleHistory());
});
afterAll(async () => {
  await db.close();
});
beforeEach(async () => {
  await db.pool.query('DROP SCHEMA IF EXISTS rm CASCADE');
  const projector = startProjector({ pool: db.pool, store: db.store });
  await projector.caughtUp;
  await untilHeadApplied(db.pool, db.store, { position: last! });
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

  it('names a journal line changed, a line missing, a line extra (position, line number, account) and an account total that differ', async () => {
    type Line = { position: string; line_no: number; account_key: string; amount_cents: string; customer_id: string | null };
    const { rows } = await db.pool.query<Line>('SELECT position, line_no, account_key, amount_cents, customer_id FROM rm.journal_lines ORDER BY position, line_no');
    expect(rows.length).toBeGreaterThanOrEqual(6);
    const [changed, deleted, copied] = [rows[0]!, rows[3]!, rows[5]!];
    const name = (line: Pick<Line, 'position' | 'line_no' | 'account_key'>) => `journal[${line.position}#${line.line_no} ${line.account_key}]`;
    await db.pool.query('UPDATE rm.journal_lines SET amount_cents = amount_cents + 7 WHERE position = $1 AND line_no = $2', [changed.position, changed.line_no]);
    await db.pool.query('DELETE FROM rm.journal_lines WHERE position = $1 AND line_no = $2', [deleted.position, deleted.line_no]);
    await db.pool.query(
      `INSERT INTO rm.journal_lines (position, line_no, event_id, recorded_at, business_date, account_key, side, amount_cents, customer_id, account_type,
         transfer_id, actor_id, description)
       SELECT position, 9, event_id, recorded_at, business_date, 'fee-income', side, amount_cents, customer_id, account_type, transfer_id, actor_id, description
         FROM rm.journal_lines WHERE position = $1 AND line_no = $2`,
      [copied.position, copied.line_no],
    );
    await db.pool.query(`UPDATE rm.ledger_accounts SET credits_cents = credits_cents + 1 WHERE key = 'staff-postings'`);

    const result = await verifyReadModels({ pool: db.pool, store: db.store });
    expect(result.ok).toBe(false);
    const staffCredits = result.mismatches.find((m) => m.field === 'ledger[staff-postings].creditsCents');
    expect(result.mismatches).toEqual([
      expect.objectContaining({ userId: changed.customer_id ?? '', field: `${name(changed)}.amountCents`, expected: Number(changed.amount_cents), actual: Number(changed.amount_cents) + 7 }),
      expect.objectContaining({ userId: deleted.customer_id ?? '', field: name(deleted), expected: 'present', actual: null }),
      { userId: copied.customer_id ?? '', stream: 'journal', field: name({ ...copied, line_no: 9, account_key: 'fee-income' }), expected: null, actual: 'present' },
      { userId: '', stream: 'ledger', field: 'ledger[staff-postings].creditsCents', expected: staffCredits?.expected, actual: (BigInt(staffCredits?.expected as string) + 1n).toString() },
    ]);
    expect(result.mismatches[0]!.stream).toMatch(/^account-/);
  });
});

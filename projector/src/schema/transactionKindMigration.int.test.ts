import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { migrateReadModels } from './migrateReadModels';
import { migrations } from './migrations';

let db: ProjectorTestDatabase;

beforeAll(async () => {
  db = await createProjectorTestDatabase('kind_migration');
});

afterAll(async () => {
  await db?.close();
});

async function insertCredit(schema: string, id: string, userId: string): Promise<void> {
  await db.pool.query(
    `INSERT INTO ${schema}.transactions (id, user_id, account, direction, amount_cents, description, date, status, balance_after_cents, kind, event_type, created_at, created_position, last_position)
     VALUES ($1, $2, 'savings', 'credit', 274, 'Interest', now(), 'completed', 100274, 'credit', 'AccountCredited', now(), '1', '1')`,
    [id, userId],
  );
}

describe("migration 7: rm.transactions.kind takes 'interest'", () => {
  it('marks the interest payments already projected, leaves the other credits, and then takes the new kind', async () => {
    const schema = 'rm_kind';
    await migrateReadModels(db.pool, schema, migrations.filter((migration) => migration.version < 7));
    const userId = randomUUID();
    const [interest, other] = [randomUUID(), randomUUID()];
    await insertCredit(schema, interest, userId);
    await insertCredit(schema, other, userId);
    await db.pool.query(
      `INSERT INTO ${schema}.interest_payments (transaction_id, user_id, account, month, business_date, amount_cents, accrued_units, carry_units)
       VALUES ($1, $2, 'savings', '2026-10', '2026-10-31', 274, 0, 0)`,
      [interest, userId],
    );

    expect((await migrateReadModels(db.pool, schema, migrations.filter((migration) => migration.version <= 7))).applied).toEqual([7]);
    const { rows } = await db.pool.query(`SELECT id, kind FROM ${schema}.transactions ORDER BY kind`);
    expect(rows).toEqual([
      { id: other, kind: 'credit' },
      { id: interest, kind: 'interest' },
    ]);
    await expect(db.pool.query(`UPDATE ${schema}.transactions SET kind = 'transfer_credit' WHERE id = $1`, [other])).rejects.toThrow(/transactions_kind_check/);
  });
});

import { journalEntryOf, parseEvent, postingEventTypes, type BankEventType } from '@bank/domain';
import { formatPosition, type Position } from '@bank/eventstore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjections } from '../rebuild/rebuildProjections';
import { migrateReadModels } from '../schema/migrateReadModels';
import { readModelTables } from '../schema/readModelTables';
import { startProjector } from '../runner/projectorRunner';
import { appendHistory } from '../testing/appendHistory';
import { dayClosed, ledgerHistory, ledgerIds } from '../testing/ledgerHistory';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { toRecordedEvents } from '../testing/recordedEvents';
import { ids } from '../testing/sampleHistory';
import { untilHeadApplied } from '../testing/untilHeadApplied';
import { verifyReadModels } from '../verify/verifyReadModels';
import { JournalBatch } from './ledger/journalBatch';

let db: ProjectorTestDatabase;
/** The last event appended (waited for by position: the store's head is read through its visibility fence). */
let last: Position | undefined;
const LEDGER_TABLES = ['journal_lines', 'ledger_accounts', 'clearing_items', 'ledger_days', 'business_date'] as const;

/** Every row of the books' tables, as JSON, ordered. */
async function books(schema = 'rm'): Promise<Record<string, unknown[]>> {
  const snapshot: Record<string, unknown[]> = {};
  for (const table of LEDGER_TABLES) {
    const { rows } = await db.pool.query<{ row: unknown }>(`SELECT to_jsonb(t) AS row FROM ${schema}.${table} t ORDER BY to_jsonb(t)::text`);
    snapshot[table] = rows.map((r) => r.row);
  }
  return snapshot;
}

/** The live projector over the whole log, `batchSize` events per batch at most. */
async function projectLive(batchSize: number): Promise<void> {
  await db.pool.query('DROP SCHEMA IF EXISTS rm CASCADE');
  const projector = startProjector({ pool: db.pool, store: db.store, batchSize });
  await projector.caughtUp;
  await untilHeadApplied(db.pool, db.store, { position: last! });
  await projector.stop();
}

beforeAll(async () => {
  db = await createProjectorTestDatabase('ledger_projection');
  last = await appendHistory(db.store, ledgerHistory());
  // The day close, through the last posting, with the totals the books have there.
  await projectLive(5_000);
  const head = last;
  const { rows } = await db.pool.query<{ key: string; debitsCents: string; creditsCents: string }>(
    `SELECT key, debits_cents::text AS "debitsCents", credits_cents::text AS "creditsCents" FROM rm.ledger_accounts ORDER BY key`,
  );
  const lines = Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM rm.journal_lines')).rows[0]!.n);
  last = await appendHistory(db.store, [dayClosed(formatPosition(head!), lines, rows)]);
});
afterAll(async () => {
  await db.close();
});

describe('the ledger projection', () => {
  it('journals every posting, keeps the totals balanced, the in-flight transfer open, the day close and the business date', async () => {
    await projectLive(3);
    const { rows: lines } = await db.pool.query<{ account_key: string; side: string; amount_cents: string; transfer_id: string | null; customer_id: string | null; actor_id: string | null; description: string }>(
      'SELECT * FROM rm.journal_lines ORDER BY position, line_no',
    );
    // Every event's entry balances: equal debits and credits, event by event.
    const { rows: unbalanced } = await db.pool.query(
      `SELECT position FROM rm.journal_lines GROUP BY position
        HAVING sum(amount_cents) FILTER (WHERE side = 'debit') IS DISTINCT FROM sum(amount_cents) FILTER (WHERE side = 'credit')`,
    );
    expect(unbalanced).toEqual([]);
    // 2 staff postings, 1 balance edit, 1 reversal, 5 payer debits, 2 payee credits, 1 refund, 1 settlement: 2 lines each.
    expect(lines).toHaveLength(26);
    expect(lines.filter((line) => line.actor_id === ids.admin).length).toBe(8);
    const totals = await db.pool.query<{ debits: string; credits: string; accounts: string }>(
      'SELECT sum(debits_cents)::text AS debits, sum(credits_cents)::text AS credits, count(*)::text AS accounts FROM rm.ledger_accounts',
    );
    expect(totals.rows[0]!.debits).toBe(totals.rows[0]!.credits);
    expect(Number(totals.rows[0]!.accounts)).toBeGreaterThanOrEqual(10);
    const balance = async (key: string) =>
      (await db.pool.query<{ b: string }>(`SELECT (credits_cents - debits_cents)::text AS b FROM rm.ledger_accounts WHERE key = $1`, [key])).rows[0]!.b;
    // The control accounts are the customers' balances (Ada savings 96,200; Ada checking 5,000 + Bob checking 2,300).
    expect(await balance('customer-savings')).toBe('96200');
    expect(await balance('customer-checking')).toBe('7300');
    // Only the in-flight transfer's debit is still in transit (the one credited before its debit nets out); the
    // settled one reached the Fed.
    expect(await balance('transfers-in-transit')).toBe('500');
    expect(await balance('ach-outbound')).toBe('0');
    expect(await balance('cash-at-fed')).toBe('1000');
    const { rows: items } = await db.pool.query('SELECT account_key, transfer_id, amount_cents::int AS amount_cents FROM rm.clearing_items');
    expect(items).toEqual([{ account_key: 'transfers-in-transit', transfer_id: ledgerIds.inFlightTransfer, amount_cents: 500 }]);
    const { rows: days } = await db.pool.query(`SELECT business_date::text AS d, line_count, balanced FROM rm.ledger_days`);
    expect(days).toEqual([{ d: '2025-06-01', line_count: 26, balanced: true }]);
    const { rows: date } = await db.pool.query(`SELECT first_date::text AS first_date, mode, last_closed::text AS last_closed FROM rm.business_date`);
    expect(date).toEqual([{ first_date: '2025-06-01', mode: 'manual', last_closed: '2025-06-01' }]);
    expect((await verifyReadModels({ pool: db.pool, store: db.store })).mismatches).toEqual([]);
  });

  it('gives the same books live (an event a batch), live (one batch) and rebuilt (in one batch, and 4 events a batch)', async () => {
    // One event a batch: every opening and closing in a batch of its own; one batch: every one netted in memory.
    await projectLive(1);
    const live = await books();
    expect(live.journal_lines).toHaveLength(26);
    await projectLive(5_000);
    expect(await books()).toEqual(live);
    await rebuildProjections({ pool: db.pool, store: db.store, batchSize: 10_000 });
    expect(await books()).toEqual(live);
    await rebuildProjections({ pool: db.pool, store: db.store, batchSize: 4, parallel: 2 });
    expect(await books()).toEqual(live);
    expect((await verifyReadModels({ pool: db.pool, store: db.store })).ok).toBe(true);
  });

  it('writes a batch twice (as a bulk load retrying) without counting anything twice: COPY refuses it, the statement adds nothing', async () => {
    const batch = new JournalBatch();
    toRecordedEvents(ledgerHistory()).forEach((recorded) => {
      if (!postingEventTypes.has(recorded.type as BankEventType)) return;
      const recordedAt = recorded.created.toISOString();
      const event = parseEvent(recorded.type, recorded.data);
      const entry = journalEntryOf(event, { streamId: recorded.streamId, recordedAt });
      if (entry) batch.add({ positionText: formatPosition(recorded.position), id: recorded.id, recordedAt }, entry);
    });
    expect(batch.lineCount).toBe(26);
    await db.pool.query('DROP SCHEMA IF EXISTS rm_copy CASCADE; DROP SCHEMA IF EXISTS rm_statement CASCADE');
    await migrateReadModels(db.pool, 'rm_copy');
    await migrateReadModels(db.pool, 'rm_statement');
    const client = await db.pool.connect();
    try {
      await batch.copy(client, readModelTables('rm_copy'));
      const once = await books('rm_copy');
      expect(once.journal_lines).toHaveLength(26);
      await expect(batch.copy(client, readModelTables('rm_copy'))).rejects.toMatchObject({ code: '23505' });
      expect(await books('rm_copy')).toEqual(once);
      for (const statement of batch.statements(readModelTables('rm_copy'))) await client.query(statement.text, statement.values);
      expect(await books('rm_copy')).toEqual(once);
      // The statement writes what the COPY wrote, once.
      for (let i = 0; i < 2; i += 1) for (const statement of batch.statements(readModelTables('rm_statement'))) await client.query(statement.text, statement.values);
      expect(await books('rm_statement')).toEqual(once);
    } finally {
      client.release();
    }
  });
});

import { bankEvent } from '@bank/domain';
import { formatPosition, type Position } from '@bank/eventstore';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EventApplyError } from '../runner/eventDispatcher';
import { startProjector, type ProjectorHandle } from '../runner/projectorRunner';
import { appendHistory } from '../testing/appendHistory';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { generateWorkload } from '../testing/randomWorkload';
import { readModelSnapshot } from '../testing/readModelSnapshot';
import { rebuildProjections } from './rebuildProjections';

let db: ProjectorTestDatabase;
const running: ProjectorHandle[] = [];

/** A logger that keeps what the rebuild says (message and details). */
function recorder() {
  const said: { level: string; message: string; details: Record<string, unknown> }[] = [];
  const keep = (level: string) => (details: object, message: string) => said.push({ level, message, details: details as Record<string, unknown> });
  return { said, logger: { info: keep('info'), warn: keep('warn'), error: keep('error') } };
}

const LOADED_AGAIN = 'rebuild: the load without primary keys found a row a key would refuse; loading again with the keys';

async function liveBuilt(last: Position | undefined): Promise<Record<string, unknown[]>> {
  const handle = startProjector({ pool: db.pool, store: db.store, leaderRetryMs: 50 });
  running.push(handle);
  await handle.ready;
  const head = formatPosition(last!);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows } = await db.pool.query(`SELECT position FROM rm.checkpoint WHERE name = 'main'`);
    if ((rows[0]?.position ?? '') >= head) break;
    if (Date.now() > deadline) throw new Error(`the live projector did not reach ${head}: ${handle.status().error?.message ?? handle.status().state}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await handle.stop();
  running.splice(running.indexOf(handle), 1);
  return readModelSnapshot(db.pool);
}

beforeAll(async () => {
  db = await createProjectorTestDatabase('projector_keys_after_load');
});
afterAll(async () => {
  await db.close();
});
beforeEach(async () => {
  await db.pool.query('DROP SCHEMA IF EXISTS rm CASCADE');
  await db.pool.query('TRUNCATE eventstore.events, eventstore.streams');
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((handle) => handle.stop()));
});

describe('a rebuild building the keys of transactions and the staff audit log after its load', () => {
  it('applies the updates of rows inserted by earlier batches once the keys are built, and builds what the live projector built', async () => {
    const last = await appendHistory(db.store, generateWorkload({ events: 3_000, seed: 61 }));
    const live = await liveBuilt(last);
    for (const unlogged of [false, true]) {
      const { said, logger } = recorder();
      // Batches of 60: status changes, reversals and settlements of transactions inserted batches before.
      await rebuildProjections({ pool: db.pool, store: db.store, batchSize: 60, logger, unlogged });
      const loading = said.find((line) => line.message === 'rebuild: loading the log into a fresh schema')!;
      expect(loading.details.keysAfterLoad).toEqual(['staff_audit_log', 'transactions']);
      // An UNLOGGED build keeps logged the tables its load only appends to.
      if (unlogged) expect(loading.details.loggedDuringLoad).toEqual(['journal_lines', 'staff_audit_log', 'transactions']);
      else expect(loading.details.loggedDuringLoad).toBeUndefined();
      const ready = said.filter((line) => line.message === 'rebuild: a table made ready');
      const transactions = ready.find((line) => String(line.details.table).endsWith('"transactions"'))!;
      expect(transactions.details.updatesAfterLoad, `unlogged ${unlogged}`).toBeGreaterThan(10);
      // The tests' role is a superuser: the index builds' WAL is compressed.
      expect(ready.map((line) => line.details.walCompression)).toEqual(ready.map(() => expect.stringMatching(/^(lz4|pglz)$/)));
      expect(ready.find((line) => String(line.details.table).endsWith('"staff_audit_log"'))!.details.updatesAfterLoad).toBe(0);
      expect(said.map((line) => line.message)).not.toContain(LOADED_AGAIN);
      const rebuilt = await readModelSnapshot(db.pool);
      for (const table of Object.keys(live)) expect(rebuilt[table], `${table}, unlogged ${unlogged}`).toEqual(live[table]);
      const { rows } = await db.pool.query(
        `SELECT r.relname FROM pg_constraint k JOIN pg_class r ON r.oid = k.conrelid WHERE k.connamespace = 'rm'::regnamespace AND k.contype = 'p'
           AND r.relname IN ('transactions', 'staff_audit_log') ORDER BY 1`,
      );
      expect(rows.map((row) => row.relname)).toEqual(['staff_audit_log', 'transactions']);
    }
  });

  it('finds a transaction the log inserts twice at its key, and loads again with the keys, as the live projector does', async () => {
    const history = generateWorkload({ events: 1_200, seed: 67 });
    const posting = history.findIndex((item, index) => index > 100 && item.event.type === 'StaffTransactionPosted');
    expect(posting).toBeGreaterThan(0);
    // The same posting recorded again much later: a replayed fact, in a batch of its own.
    const last = await appendHistory(db.store, [...history, history[posting]!]);
    const live = await liveBuilt(last);
    const { said, logger } = recorder();
    await rebuildProjections({ pool: db.pool, store: db.store, batchSize: 100, logger, unlogged: true });
    const again = said.find((line) => line.message === LOADED_AGAIN);
    expect(again?.details.reason).toMatch(/"transactions" holds a key twice/);
    const rebuilt = await readModelSnapshot(db.pool);
    for (const table of Object.keys(live)) expect(rebuilt[table], table).toEqual(live[table]);
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM rm.transactions WHERE id = $1`, [(history[posting]!.event.data as { transactionId: string }).transactionId]);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('names a status change that came before its transaction was recorded, as the load with keys (and the live projector) does', async () => {
    const history = generateWorkload({ events: 600, seed: 71 });
    const opened = history.find((item) => item.event.type === 'AccountOpened')!;
    const transactionId = '00000000-0000-4000-8000-00000000f00d';
    const occurredAt = '2025-06-01T10:00:00.000Z';
    const early = { stream: opened.stream, event: bankEvent('TransactionStatusChanged', { transactionId, status: 'completed', previousStatus: 'pending', occurredAt }) };
    const late = {
      stream: opened.stream,
      event: bankEvent('AccountCredited', { transactionId, account: 'savings', amountCents: 100, direction: 'credit', description: 'Deposit', status: 'pending', occurredAt, balanceAfterCents: 100 }),
    };
    await appendHistory(db.store, [...history.slice(0, 300), early, ...history.slice(300), late]);
    const { said, logger } = recorder();
    const failed = await rebuildProjections({ pool: db.pool, store: db.store, batchSize: 100, logger }).catch((error: unknown) => error);
    // Without the position check, the row recorded after the change would have let the change through.
    expect(said.find((line) => line.message === LOADED_AGAIN)?.details.reason).toMatch(new RegExp(`an update came before its row ${transactionId}`));
    expect(failed).toBeInstanceOf(EventApplyError);
    expect((failed as EventApplyError).message).toMatch(new RegExp(`TransactionStatusChanged of ${opened.stream} .* refers to "rm_build_\\d+"\\.transactions row ${transactionId}, which does not exist`));
    const schemas = await db.pool.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rm%' ORDER BY 1`);
    expect(schemas.rows).toEqual([]);
  });
});

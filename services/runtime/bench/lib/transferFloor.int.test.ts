import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandHandler, createPostgresSnapshotStore, type CommandHandler } from '@bank/commands';
import { transferInput } from '@bank/domain';
import { parseKeyringText } from '@bank/platform';
import { migrateReadModels, startProjector, type ProjectorHandle } from '@bank/projector';
import { createTransferFixture, waitUntil, type TransferFixture } from '@bank/testkit';
import { requestTransfer, startTransferProcess, type TransferProcessHandle } from '@bank/transfers';
import { runTransferFloor } from './transferFloor';

/**
 * The floor (bench/floor/transferFloor.sql) claims to do every write an internal transfer makes. This test holds it
 * to that: one real internal transfer through the bank's code (request, transfer process, projector), then one
 * transfer of the floor on the same database, and the two must have written the same things — the same events
 * (type, stream category, the keys of data and metadata), the same transaction, transfer and journal rows. A new
 * event or read-model row in the bank's transfer fails it until the floor does that write too.
 */
const PIN = '123456';
const BUSINESS_DATE = async () => '2026-11-27';
let fx: TransferFixture;
/** The bank's command handler: with chain keys, as production runs it (the fixture's chains events unkeyed). */
let commands: CommandHandler;
let projector: ProjectorHandle | undefined;
let transfers: TransferProcessHandle | undefined;

interface Writes {
  readonly events: string[];
  readonly transactions: number;
  readonly transferRows: number;
  readonly journalLines: string[];
}

async function writesOf(transferId: string): Promise<Writes> {
  const { rows: events } = await fx.pool.query<{ line: string }>(
    `SELECT split_part(stream_id, '-', 1) || ' ' || type || ' data(' || (SELECT string_agg(k, ',' ORDER BY k) FROM jsonb_object_keys(data) k) ||
            ') metadata(' || (SELECT string_agg(k, ',' ORDER BY k) FROM jsonb_object_keys(metadata) k) || ')' AS line
       FROM eventstore.events WHERE metadata->>'correlationId' = $1 ORDER BY 1`,
    [transferId],
  );
  const count = async (sql: string) => Number((await fx.pool.query<{ n: string }>(sql, [transferId])).rows[0]!.n);
  const { rows: lines } = await fx.pool.query<{ line: string }>(
    `SELECT account_key || ' ' || side || ' ' || amount_cents AS line FROM rm.journal_lines WHERE transfer_id = $1 ORDER BY 1`,
    [transferId],
  );
  return {
    events: events.map((row) => row.line),
    transactions: await count('SELECT count(*)::text AS n FROM rm.transactions WHERE transfer_id = $1'),
    transferRows: await count('SELECT count(*)::text AS n FROM rm.transfers WHERE id = $1'),
    journalLines: lines.map((row) => row.line),
  };
}

beforeAll(async () => {
  fx = await createTransferFixture('transfer_floor');
  await migrateReadModels(fx.pool);
  commands = createCommandHandler({
    store: fx.store,
    snapshots: createPostgresSnapshotStore(fx.pool),
    chainKeys: parseKeyringText('CHAIN_KEYS', 'test', `k1:${randomBytes(32).toString('base64')}`),
  });
  projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
  transfers = startTransferProcess({
    store: fx.store,
    commands,
    pool: fx.pool,
    signals: fx.signals,
    businessDate: BUSINESS_DATE,
  });
  await transfers.ready;
});

afterAll(async () => {
  await transfers?.stop();
  await projector?.stop();
  await fx?.close();
});

// The wait for the credit is 60 s of its own (see below): the timeout leaves room for pgbench and the checks after it.
describe("the transfer's floor", { timeout: 180_000 }, () => {
  it('writes what one internal transfer of the bank writes, in one transaction, and checks its own result', async () => {
    const payer = await fx.openCustomer({ checkingCents: 500_00, pin: PIN });
    const payee = await fx.openCustomer({ checkingCents: 500_00 });
    const answer = await requestTransfer(
      { commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 10_000, businessDate: BUSINESS_DATE },
      {
        userId: payer.userId,
        input: transferInput.parse({ from: 'checking', amount: 1, accountNumber: payee.accountNumber, accountType: 'checking', paymentPin: PIN, description: 'bench' }),
        idempotencyKey: randomUUID(),
        requestId: randomUUID(),
      },
    );
    // Credited and projected (not asserted on the answer: another database's long transaction on a shared server can
    // hold the log back past the request's wait, and the transfer then completes after it answered pending).
    await waitUntil(async () => (await writesOf(answer.transferId)).journalLines.length === 4 && (await fx.pool.query("SELECT 1 FROM rm.transfers WHERE status = 'credited'")).rowCount === 1, {
      timeoutMs: 60_000,
      what: 'the transfer credited and projected',
    });
    const bank = await writesOf(answer.transferId);
    // Nothing follows the log while the floor writes into it (it would take the floor's debits for transfers).
    await transfers?.stop();
    await projector?.stop();
    transfers = undefined;
    projector = undefined;

    const floor = await runTransferFloor({ databaseUrl: fx.db.url, transactions: 1, clients: 1, share: 1 });
    expect(floor.problems).toEqual([]);
    expect(floor.transactions).toBe(1);
    const { rows } = await fx.pool.query<{ id: string }>('SELECT id::text FROM rm.transfers WHERE id <> $1', [answer.transferId]);
    expect(rows).toHaveLength(1);
    const written = await writesOf(rows[0]!.id);

    expect(bank.events).toHaveLength(6);
    expect(written).toEqual(bank);
  });
});

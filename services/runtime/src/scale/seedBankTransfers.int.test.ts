import { createAuditVerifier } from '@bank/audit';
import { createCommandHandler } from '@bank/commands';
import { clearingAccountKeys, controlAccountKeyOf, nextTransferStep, transferRequestOf, trialBalanceOf, type EventData } from '@bank/domain';
import { createPostgresEventStore, ensureEventStoreSchema, type EventStore } from '@bank/eventstore';
import { createPool, parseKeyringText } from '@bank/platform';
import { migrateReadModels } from '@bank/projector';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import { readTransfer, startTransferProcess } from '@bank/transfers';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGeneratedBank } from './loadGeneratedBank';
import { seedBank, type SeedBankResult } from './seedBank';
import { plannedContact } from './seedContacts';
import { seedDocument } from './seedDocument';
import { seedTransferCheckpoint } from './seedTransferCheckpoint';
import { DAY_MS, HISTORY_START } from './seedTransfers';
import { plannedVerification } from './seedVerifications';

/**
 * A generated bank with transfers and verifications, hash-chained with a chain key as the API appends: after the
 * rebuild both sides of every transfer are in the read models, money is conserved, the audit verification passes,
 * the transfer process finds nothing left to do, and the same load again appends nothing.
 */
let database: TestDatabase;
let pool: pg.Pool;
let store: EventStore;
let seeded: SeedBankResult;
const options = { customers: 80, transactions: 1_200, seed: 11 };
const HASH = '$2a$10$abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQ';
const chainKeys = parseKeyringText('chain', 'CHAIN_KEYS', `k1:${Buffer.alloc(32, 7).toString('base64')}`);
const checkpointKeys = parseKeyringText('checkpoint', 'CHECKPOINT_KEYS', `c1:${Buffer.alloc(32, 9).toString('base64')}`);
const checkpointDir = mkdtempSync(path.join(tmpdir(), 'seed-checkpoints-'));

const count = async (sql: string, values: unknown[] = []) => Number((await pool.query<{ n: string }>(sql, values)).rows[0]!.n);
const storedEvents = () => count('SELECT count(*) AS n FROM eventstore.events');

beforeAll(async () => {
  database = await createTestDatabase('seed_transfers');
  pool = createPool(database.url, 8);
  await ensureEventStoreSchema(pool);
  await migrateReadModels(pool);
  store = createPostgresEventStore({ pool });
  // As seed:scale loads it: events, document, transfer checkpoint, rebuild, and the log's signed checkpoints.
  ({ seeded } = await loadGeneratedBank({ ...options, pool, store, passwordHash: HASH, chainKeys, chunk: 40, checkpoints: { dir: checkpointDir, keys: checkpointKeys } }));
}, 240_000);

afterAll(async () => {
  rmSync(checkpointDir, { recursive: true, force: true });
  await store?.close();
  await pool?.end();
  await database?.drop();
});

describe('a generated bank with transfers', () => {
  it('spends the budget: every row of the transaction lists, and every transfer completed', async () => {
    expect(seeded.transactions).toBe(1_200);
    expect(seeded.internalTransfers).toBeGreaterThan(50);
    expect(seeded.externalTransfers).toBeGreaterThan(5);
    expect(await storedEvents()).toBe(seeded.events);
    expect(await count('SELECT count(*) AS n FROM rm.transactions')).toBe(1_200 + seeded.interestPayments);
    expect(await count(`SELECT count(*) AS n FROM rm.transfers WHERE internal AND status = 'credited'`)).toBe(seeded.internalTransfers);
    expect(await count(`SELECT count(*) AS n FROM rm.transfers WHERE NOT internal AND status = 'settled'`)).toBe(seeded.externalTransfers);
    expect(await count(`SELECT count(*) AS n FROM rm.transfers`)).toBe(seeded.internalTransfers + seeded.externalTransfers);
    expect(await count(`SELECT count(*) AS n FROM rm.transactions WHERE status <> 'completed'`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM rm.accounts WHERE savings_cents < 0 OR checking_cents < 0`)).toBe(0);
  });

  it('shows each internal transfer on both sides: the payer’s debit and the payee’s credit, same amount', async () => {
    const both = await count(
      `SELECT count(*) AS n FROM rm.transfers t
         JOIN rm.transactions d ON d.id = t.debit_transaction_id AND d.user_id = t.payer_id AND d.direction = 'debit' AND d.amount_cents = t.amount_cents AND d.kind = 'transfer'
         JOIN rm.transactions c ON c.id = t.credit_transaction_id AND c.user_id = t.payee_id AND c.direction = 'credit' AND c.amount_cents = t.amount_cents AND c.kind = 'transfer'
        WHERE t.internal`,
    );
    expect(both).toBe(seeded.internalTransfers);
    const external = await count(
      `SELECT count(*) AS n FROM rm.transfers t JOIN rm.transactions d ON d.id = t.debit_transaction_id AND d.user_id = t.payer_id AND d.direction = 'debit' WHERE NOT t.internal AND t.payee_id IS NULL`,
    );
    expect(external).toBe(seeded.externalTransfers);
  });

  it('conserves money: the balances are the staff postings’ net less what left the bank, plus the interest paid', async () => {
    const { rows } = await pool.query<{ balances: string; postings: string; out: string }>(
      `SELECT (SELECT sum(savings_cents + checking_cents) FROM rm.accounts)::text AS balances,
              (SELECT sum(CASE direction WHEN 'credit' THEN amount_cents ELSE -amount_cents END) FROM rm.transactions WHERE kind = 'staff')::text AS postings,
              (SELECT sum(amount_cents) FROM rm.transfers WHERE NOT internal)::text AS out`,
    );
    const { balances, postings, out } = rows[0]!;
    expect(BigInt(out)).toBeGreaterThan(0n);
    expect(seeded.interestPaidCents).toBeGreaterThan(0n);
    expect(BigInt(balances)).toBe(BigInt(postings) - BigInt(out) + seeded.interestPaidCents);
  });

  it('keeps balanced books: total debits = total credits, each control account = the sum of its customers’ balances, nothing in transit', async () => {
    const { rows } = await pool.query<{ key: string; debits: string; credits: string }>(
      'SELECT key, debits_cents::text AS debits, credits_cents::text AS credits FROM rm.ledger_accounts',
    );
    const trial = trialBalanceOf(new Map(rows.map((row) => [row.key, { debitsCents: BigInt(row.debits), creditsCents: BigInt(row.credits) }])));
    expect(trial.totalDebitsCents).toBeGreaterThan(0n);
    expect(trial.totalDebitsCents).toBe(trial.totalCreditsCents);
    expect(trial.balanced).toBe(true);
    const balanceOf = (key: string) => trial.rows.find((row) => row.key === key)!.balanceCents;
    const { rows: sums } = await pool.query<{ savings: string; checking: string }>(
      'SELECT sum(savings_cents)::text AS savings, sum(checking_cents)::text AS checking FROM rm.accounts',
    );
    expect(balanceOf(controlAccountKeyOf.savings)).toBe(BigInt(sums[0]!.savings));
    expect(balanceOf(controlAccountKeyOf.checking)).toBe(BigInt(sums[0]!.checking));
    // Every generated transfer completed: the clearing accounts are empty and hold no open item.
    for (const key of clearingAccountKeys) expect(balanceOf(key)).toBe(0n);
    expect(await count('SELECT count(*) AS n FROM rm.clearing_items')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM rm.journal_lines')).toBeGreaterThanOrEqual(2 * 1_200);
    // The interest booked day by day was all paid out: payable empty, the expense what the customers received.
    expect(balanceOf('interest-payable')).toBe(0n);
    expect(balanceOf('interest-expense')).toBe(seeded.interestPaidCents);
  });

  it('records the verifications the plan gives, decided by the generated admin, with a readable document', async () => {
    const plan = Array.from({ length: options.customers }, (_, i) => plannedVerification(options.seed, i, HISTORY_START + (i % 30) * DAY_MS));
    const expected = (status: string) => plan.filter((v) => v !== undefined && (v.decision?.status ?? 'pending') === status).length;
    expect(plan.filter((v) => v !== undefined).length).toBe(seeded.verifiers.length);
    expect(seeded.verifiers.length).toBeGreaterThan(0);
    for (const status of ['pending', 'verified', 'failed']) {
      expect(await count(`SELECT count(*) AS n FROM rm.users WHERE role = 'customer' AND verification_status = $1`, [status])).toBe(expected(status));
    }
    expect(await count(`SELECT count(*) AS n FROM rm.users WHERE verification IS NOT NULL`)).toBe(seeded.verifiers.length);
    expect(await count(`SELECT count(*) AS n FROM files.file_access WHERE file_id = $1`, [seedDocument().fileId])).toBe(seeded.verifiers.length);
  });

  it('records the contact messages the plan gives, the deleted ones marked deleted', async () => {
    const plan = Array.from({ length: options.customers }, (_, i) => plannedContact(options.seed, i, HISTORY_START + (i % 30) * DAY_MS)).filter((c) => c !== undefined);
    expect(plan.length).toBe(seeded.contacts);
    expect(seeded.contacts).toBeGreaterThan(0);
    expect(await count('SELECT count(*) AS n FROM rm.contacts')).toBe(plan.length);
    expect(await count('SELECT count(*) AS n FROM rm.contacts WHERE deleted_at IS NOT NULL')).toBe(plan.filter((c) => c.deletedAt !== undefined).length);
  });

  it('carries on each debit the request of the transfer record', async () => {
    const { rows } = await pool.query<{ stream_id: string; data: EventData<'AccountDebited'> }>(
      `SELECT stream_id, data FROM eventstore.events WHERE type = 'AccountDebited' AND data ? 'intent' ORDER BY global_position LIMIT 20`,
    );
    expect(rows.length).toBe(20);
    for (const row of rows) {
      const request = transferRequestOf(row.stream_id.slice('account-'.length), row.data)!;
      const [recorded] = await store.readStream(`transfer-${request.transferId}`, { limit: 1 });
      expect(recorded?.type).toBe('TransferRequested');
      expect(recorded?.data).toEqual(request);
    }
  });

  it('passes the audit verification: every hash chain intact, every balance as its replay, the signed checkpoints up to the load', async () => {
    const report = await createAuditVerifier({ config: { EVENTSTORE_URL: undefined }, pool, store, chainKeys, checkpoints: { dir: checkpointDir, keys: checkpointKeys } })();
    expect(report.mismatches).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checked.events).toBe(seeded.events);
    // The checkpoints the load wrote vouch for the whole log: every stream, up to the load's last event.
    expect(report.checkpoint?.position).toBe(store.positionToken(seeded.position!));
    expect(report.checkpoint?.streams).toBe(Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM eventstore.streams')).rows[0]!.n));
  });

  const followLog = async (name: string): Promise<void> => {
    const process_ = startTransferProcess({ store, commands: createCommandHandler({ store, chainKeys }), pool, name });
    try {
      await process_.caughtUp;
    } finally {
      await process_.stop();
    }
  };
  const externalTransferIds = async (): Promise<string[]> =>
    (await pool.query<{ id: string }>("SELECT DISTINCT data->>'transferId' AS id FROM eventstore.events WHERE type = 'TransferSettled'")).rows.map((row) => row.id);

  it('leaves the transfer process nothing to do: its checkpoint is past every transfer, as the real process leaves it', async () => {
    const before = await storedEvents();
    await seedTransferCheckpoint(pool, seeded.position);
    await followLog('transfers');
    expect(await storedEvents()).toBe(before);
  });

  it('is complete as the process leaves it: run again over the whole log, every step (and each settlement) appends nothing', async () => {
    const before = await storedEvents();
    const commands = createCommandHandler({ store, chainKeys });
    // Re-reading an external transfer's debit (as after a lost checkpoint) queues nothing: its record is settled.
    await followLog('transfers-from-the-start');
    const external = await externalTransferIds();
    expect(external.length).toBe(seeded.externalTransfers);
    for (const transferId of external) {
      const state = await readTransfer(commands, transferId);
      expect(state.phase).toBe('settled');
      if (state.phase === 'none') continue;
      expect(nextTransferStep(state, state.request)).toBe('done');
    }
    expect(await storedEvents()).toBe(before);
  });

  it('appends nothing when the same load runs again', async () => {
    const before = await storedEvents();
    const again = await seedBank({ ...options, store, passwordHash: HASH, chainKeys, chunk: 40 });
    expect(again.events).toBe(seeded.events);
    expect(await storedEvents()).toBe(before);
  }, 240_000);
});

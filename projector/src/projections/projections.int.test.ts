import { bankEventTypes, eventTypesOfStream } from '@bank/domain';
import type { RecordedEvent } from '@bank/eventstore';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyBatch } from '../runner/applyBatch';
import { migrateReadModels } from '../schema/migrateReadModels';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { mainBatchTarget } from '../testing/mainBatchTarget';
import { readModelSnapshot } from '../testing/readModelSnapshot';
import { toRecordedEvents } from '../testing/recordedEvents';
import { at, ids, sampleHistory } from '../testing/sampleHistory';
import { defaultProjections } from './defaultProjections';

let db: ProjectorTestDatabase;
const target = mainBatchTarget();
const events = toRecordedEvents(sampleHistory());

async function applyAll(batches: readonly RecordedEvent[][]): Promise<void> {
  const client = await db.pool.connect();
  try {
    for (const batch of batches) {
      const { rows } = await client.query<{ position: string | null }>(`SELECT position FROM rm.checkpoint WHERE name = 'main'`);
      await applyBatch(client, target, batch, rows[0]?.position ?? null);
    }
  } finally {
    client.release();
  }
}

async function one<T>(sql: string, values: unknown[] = []): Promise<T> {
  const { rows } = await db.pool.query(sql, values);
  expect(rows).toHaveLength(1);
  return rows[0] as T;
}

beforeAll(async () => {
  db = await createProjectorTestDatabase('projections');
});
afterAll(async () => {
  await db.close();
});
beforeEach(async () => {
  await db.pool.query('DROP SCHEMA IF EXISTS rm CASCADE');
  await migrateReadModels(db.pool);
  await db.pool.query(`INSERT INTO rm.checkpoint (name) VALUES ('main')`);
});

describe('the projections', () => {
  beforeEach(async () => {
    await applyAll([events]);
  });

  it('project a registered customer with every profile change into rm.users', async () => {
    const ada = await one<Record<string, unknown>>('SELECT * FROM rm.users WHERE id = $1', [ids.ada]);
    expect(ada).toMatchObject({
      first_name: 'Ada',
      last_name: 'Tester',
      email: 'Ada.L@Example.com',
      email_lower: 'ada.l@example.com',
      phone: '555-0199',
      address: '1 Main St',
      state: 'NY',
      account_number: '1234500000',
      role: 'customer',
      password_hash: '$2b$10$newhash',
      payment_pin_hash: '$2b$10$pin',
      has_payment_pin: true,
      verification_status: 'verified',
      profile_picture_file_id: ids.picture,
      is_blocked: false,
      is_disabled: false,
      is_closed: false,
      closed_at: null,
    });
    expect(ada.verification).toMatchObject({ documentType: 'passport', documentFront: { fileId: ids.front }, documentBack: { fileId: ids.front }, dateOfBirth: '1990-01-02' });
    expect((ada.created_at as Date).toISOString()).toBe('2025-06-01T10:00:00.000Z');
    expect(ada.search_text).toContain('ada.l@example.com');
    const admin = await one<{ role: string }>('SELECT role FROM rm.users WHERE id = $1', [ids.admin]);
    expect(admin.role).toBe('admin');
  });

  it('find users by e-mail case-insensitively and by account number', async () => {
    const byEmail = await db.pool.query('SELECT id FROM rm.users WHERE email_lower = lower($1) AND NOT is_closed', ['ADA.l@example.COM']);
    expect(byEmail.rows).toEqual([{ id: ids.ada }]);
    const byNumber = await db.pool.query('SELECT id FROM rm.users WHERE account_number = $1', ['1234500000']);
    expect(byNumber.rows).toEqual([{ id: ids.ada }]);
  });

  it('mark a closed customer and account', async () => {
    expect(await one('SELECT is_closed FROM rm.users WHERE id = $1', [ids.bob])).toEqual({ is_closed: true });
    expect(await one('SELECT is_closed FROM rm.accounts WHERE user_id = $1', [ids.bob])).toEqual({ is_closed: true });
  });

  it('keep the balances in cents in rm.accounts', async () => {
    const { rows } = await db.pool.query('SELECT user_id, savings_cents, checking_cents FROM rm.accounts ORDER BY user_id');
    expect(rows).toEqual([
      { user_id: ids.ada, savings_cents: '98000', checking_cents: '5000' },
      { user_id: ids.bob, savings_cents: '0', checking_cents: '2000' },
    ]);
  });

  it('list every money movement with its kind, status and balance after, newest first', async () => {
    const { rows } = await db.pool.query(
      `SELECT id, account, direction, amount_cents, status, balance_after_cents, kind, transfer_id, reversed_by, reversal_of, refund_of
         FROM rm.transactions WHERE user_id = $1 ORDER BY date DESC, id DESC`,
      [ids.ada],
    );
    expect(rows.map((r) => [r.id, r.kind, r.direction, r.amount_cents, r.status, r.balance_after_cents])).toEqual([
      [ids.reversal, 'reversal', 'credit', '500', 'completed', '98000'],
      [ids.externalRefund, 'refund', 'credit', '3000', 'completed', '98000'],
      [ids.externalDebit, 'transfer', 'debit', '3000', 'failed', '95000'],
      [ids.internalDebit, 'transfer', 'debit', '2000', 'completed', '98000'],
      [ids.adjustChecking, 'adjustment', 'credit', '5000', 'completed', '5000'],
      [ids.staffCredit, 'staff', 'credit', '100000', 'completed', '100000'],
      // Back-dated by the admin: listed at the date given, with the balance after it as posted.
      [ids.staffDebit, 'staff', 'debit', '500', 'reversed', '97500'],
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ids.staffDebit)?.reversed_by).toBe(ids.reversal);
    expect(byId.get(ids.reversal)?.reversal_of).toBe(ids.staffDebit);
    expect(byId.get(ids.externalRefund)?.refund_of).toBe(ids.externalDebit);
    expect(byId.get(ids.internalDebit)?.transfer_id).toBe(ids.internalTransfer);
    const bob = await one<{ kind: string; user_id: string }>('SELECT kind, user_id FROM rm.transactions WHERE id = $1', [ids.internalCredit]);
    expect(bob).toEqual({ kind: 'transfer', user_id: ids.bob });
  });

  it('follow each transfer through its process in rm.transfers', async () => {
    const internal = await one<Record<string, unknown>>('SELECT * FROM rm.transfers WHERE id = $1', [ids.internalTransfer]);
    expect(internal).toMatchObject({ payer_id: ids.ada, payee_id: ids.bob, amount_cents: '2000', internal: true, status: 'credited', from_account: 'savings', to_account: 'checking' });
    const external = await one<Record<string, unknown>>('SELECT * FROM rm.transfers WHERE id = $1', [ids.externalTransfer]);
    expect(external).toMatchObject({ payee_id: null, internal: false, status: 'refunded', failure_reason: 'Rejected by the other bank', recipient_name: 'Carol' });
  });

  it('keep removed beneficiaries and deleted contact messages out of the lists', async () => {
    const beneficiaries = await db.pool.query('SELECT id, name, bank_name FROM rm.beneficiaries WHERE removed_at IS NULL');
    expect(beneficiaries.rows).toEqual([{ id: ids.beneficiary1, name: 'Carol', bank_name: 'Other Bank' }]);
    const contacts = await db.pool.query('SELECT id, name, phone, subject FROM rm.contacts WHERE deleted_at IS NULL');
    expect(contacts.rows).toEqual([{ id: ids.contact1, name: 'Eve', phone: '', subject: 'Hi' }]);
    expect(await one('SELECT count(*)::int AS n FROM rm.contacts')).toEqual({ n: 2 });
  });

  it('record card requests per customer', async () => {
    expect(await one('SELECT user_id, card_type, status FROM rm.card_requests')).toEqual({ user_id: ids.ada, card_type: 'travel-hotel', status: 'requested' });
  });

  it('write one audit-log row per staff action, with secrets masked, and none for the customer’s own changes', async () => {
    const { rows } = await db.pool.query(`SELECT type, actor_id, actor_role, target_user_id, target_id, details FROM rm.staff_audit_log ORDER BY position`);
    expect(rows.map((r) => r.type)).toEqual([
      'ProfileChanged',
      'VerificationStatusSet',
      'PaymentPinSet',
      'CustomerBlocked',
      'CustomerUnblocked',
      'CustomerDisabled',
      'CustomerEnabled',
      'AccountNumberChanged',
      'StaffTransactionPosted',
      'BalanceAdjusted',
      'StaffTransactionPosted',
      'TransactionReversed',
      'BeneficiaryAdded',
      'BeneficiaryAdded',
      'BeneficiaryRemoved',
      'ContactMessageDeleted',
      'CustomerClosed',
      'AccountClosed',
    ]);
    for (const row of rows) expect(row).toMatchObject({ actor_id: ids.admin, actor_role: 'admin' });
    // A back-dated staff transaction is logged when it was posted, not at the date the admin gave it.
    const posted = await db.pool.query<{ at: Date }>(`SELECT at FROM rm.staff_audit_log WHERE target_id = $1`, [ids.staffDebit]);
    expect(posted.rows[0]!.at.toISOString()).toBe(at(22));
    expect(rows[0].details).toMatchObject({ before: { email: 'ada@example.com' }, after: { email: 'Ada.L@Example.com' } });
    expect(rows[0].target_user_id).toBe(ids.ada);
    expect(rows[2].details.pinHash).toBe('***');
    expect(rows[11].target_id).toBe(ids.reversal);
  });

  it('advance the checkpoint to the last event, unknown types included', async () => {
    const checkpoint = await one<{ position: string; events_applied: string }>(`SELECT position, events_applied FROM rm.checkpoint WHERE name = 'main'`);
    expect(checkpoint.position).toBe(`${'0'.repeat(18)}${events.length}:${'0'.repeat(18)}${events.length}`);
    expect(Number(checkpoint.events_applied)).toBe(events.length);
  });
});

describe('the catalogue', () => {
  it("has a projection for every event type of the domain but the uniqueness reservations, the COB's steps and the ACH stream's own records", () => {
    const handled = new Set(defaultProjections.flatMap((projection) => Object.keys(projection.handlers)));
    const unhandled = bankEventTypes.filter((type) => !handled.has(type));
    // The COB's progress is read by the worker from the businessDays stream itself; no read model shows it. (A rate
    // change is in the staff audit log; the rates themselves are read from their stream.) The ACH entries waiting for
    // a file and the incoming credits applied are the achFiles stream's state (their money is in the transactions; an
    // entry owed back posts to the books).
    expect(unhandled.sort()).toEqual(
      [...eventTypesOfStream('email'), ...eventTypesOfStream('accountnumber'), 'CobStepCompleted', 'AchEntryQueued', 'AchIncomingCredited'].sort(),
    );
  });
});

describe('applying the same events again', () => {
  it('gives the same rows, as a whole batch or event by event', async () => {
    await applyAll([events]);
    const once = await readModelSnapshot(db.pool);
    await applyAll([events]);
    expect(await readModelSnapshot(db.pool)).toEqual(once);
    await applyAll(events.map((event) => [event]));
    expect(await readModelSnapshot(db.pool)).toEqual(once);
  });

  it('gives the same rows when every event is applied twice in a row', async () => {
    await applyAll([events]);
    const once = await readModelSnapshot(db.pool);
    await db.pool.query('DROP SCHEMA rm CASCADE');
    await migrateReadModels(db.pool);
    await db.pool.query(`INSERT INTO rm.checkpoint (name) VALUES ('main')`);
    await applyAll(events.map((event) => [event, event]));
    expect(await readModelSnapshot(db.pool)).toEqual(once);
  });
});

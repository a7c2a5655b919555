import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createPostgresEventStore, ensureEventStoreSchema, type EventStore } from '@bank/eventstore';
import { createCheckpointWriter } from '@bank/integrity';
import { createPool, parseKeyringText } from '@bank/platform';
import { rebuildProjections } from '@bank/projector';
import { createTestDatabase, type TestDatabase, waitUntil } from '@bank/testkit';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistoryBuilder, type Actor } from '../../testing/historyBuilder';
import { tamperEvents } from '../../testing/tamperEvents';
import { TEST_CHAIN_KEYS, TEST_CHECKPOINT_KEYS } from '../../testing/testApp';

/** The auditors' CLIs, run as child processes (npm run audit:…) against a test database. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const exec = promisify(execFile);

let database: TestDatabase;
let pool: pg.Pool;
let store: EventStore;
let alice = '';
const admin: Actor = { id: randomUUID(), role: 'admin' };
const t = (day: number, hour = 10) => new Date(Date.UTC(2025, 1, day, hour));

// The CLI's own keys and files: never the repository's .data directory.
const cliDataDir = mkdtempSync(path.join(tmpdir(), 'audit-cli-'));
const checkpointDir = path.join(cliDataDir, 'checkpoints');
const cliEnv = () => ({ DATA_DIR: cliDataDir, CHAIN_KEYS: TEST_CHAIN_KEYS, CHECKPOINT_KEYS: TEST_CHECKPOINT_KEYS, CHECKPOINT_DIR: checkpointDir });

async function npmRun(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec('npm', ['run', '--silent', script, '--', ...args], {
      cwd: root,
      env: { ...process.env, ...cliEnv(), DATABASE_URL: database.url, EVENTSTORE_URL: '', NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

beforeAll(async () => {
  database = await createTestDatabase('audit_cli');
  pool = createPool(database.url, 2);
  await ensureEventStoreSchema(pool);
  store = createPostgresEventStore({ pool });
  const history = createHistoryBuilder(store);
  alice = await history.register({ firstName: 'Alice', lastName: 'Cli', email: 'alice.cli@example.com', accountNumber: '2000000001' }, t(1));
  await history.account(
    alice,
    { type: 'AdjustBalances', adminId: admin.id, savingsCents: 30_000, checkingCents: 4_550, transactionIds: { savings: randomUUID(), checking: randomUUID() }, now: t(2).toISOString() },
    admin,
    t(2),
  );
  await history.account(
    alice,
    { type: 'PostStaffTransaction', transactionId: randomUUID(), adminId: admin.id, account: 'savings', direction: 'debit', amountCents: 1_000, date: '2025-02-03', description: 'Fee', now: t(3).toISOString() },
    admin,
    t(3),
  );
});

afterAll(async () => {
  await store?.close();
  await pool?.end();
  await database?.drop();
  rmSync(cliDataDir, { recursive: true, force: true });
});

describe('npm run audit:replay', () => {
  it('prints the history, one line per event, and the balances now', async () => {
    const { code, stdout } = await npmRun('audit:replay', ['--user', 'Alice.Cli@example.com']);
    expect(code).toBe(0);
    expect(stdout).toContain(`History of Alice Cli <alice.cli@example.com>, id ${alice}`);
    const lines = stdout.split('\n').filter((line) => /^\d{4}-\d{2}-\d{2}T/.test(line));
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(new RegExp(`^${t(1).toISOString()}\\s+customer:${alice}\\s+CustomerRegistered\\s+Registered Alice Cli`));
    expect(lines[4]).toMatch(new RegExp(`admin:${admin.id}\\s+StaffTransactionPosted\\s+Staff debit \\$10\\.00 on savings — Fee; balance \\$290\\.00`));
    expect(stdout).toMatch(/savings\s+\$290\.00/);
    expect(stdout).toMatch(/checking\s+\$45\.50/);
  });

  it('replays as of --at, by id', async () => {
    const { code, stdout } = await npmRun('audit:replay', ['--user', alice, '--at', t(2, 12).toISOString()]);
    expect(code).toBe(0);
    expect(stdout.split('\n').filter((line) => /^\d{4}-/.test(line))).toHaveLength(4);
    expect(stdout).toMatch(/savings\s+\$300\.00/);
  });

  it('reads a customer’s transfer streams with its progress on stderr, the history on stdout', async () => {
    const history = createHistoryBuilder(store);
    const carol = await history.register({ firstName: 'Carol', lastName: 'Payer', email: 'carol.cli@example.com', accountNumber: '2000000002' }, t(4));
    const dave = await history.register({ firstName: 'Dave', lastName: 'Payee', email: 'dave.cli@example.com', accountNumber: '2000000003' }, t(4));
    await history.account(
      carol,
      { type: 'AdjustBalances', adminId: admin.id, savingsCents: 10_000, checkingCents: 0, transactionIds: { savings: randomUUID(), checking: randomUUID() }, now: t(5).toISOString() },
      admin,
      t(5),
    );
    await history.customer(carol, { type: 'SetPaymentPin', adminId: admin.id, pinHash: '$2a$10$pinhashpinhashpinhashpinhashpinhashpinhashpinhashpinhc', now: t(5, 11).toISOString() }, admin, t(5, 11));
    for (const day of [6, 7, 8]) {
      await history.transfer({ payerId: carol, payeeId: dave, payeeName: 'Dave Payee', payeeAccountNumber: '2000000003', from: 'savings', to: 'checking', amountCents: 1_000, description: `Rent ${day}` }, t(day));
    }
    const { code, stdout, stderr } = await npmRun('audit:replay', ['--user', carol]);
    expect(code).toBe(0);
    expect(stderr).toContain('reading the transfer streams: 3 of 3 streams');
    expect(stdout).not.toContain('reading the transfer streams');
    expect(stdout).toMatch(/savings\s+\$70\.00/);
  });

  it('exits 1 for an unknown customer and 2 for bad arguments', async () => {
    expect((await npmRun('audit:replay', ['--user', 'nobody@example.com'])).code).toBe(1);
    const bad = await npmRun('audit:replay', ['--user', alice, '--at', 'last tuesday']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--at must be an ISO-8601');
    expect((await npmRun('audit:replay', [])).code).toBe(2);
  });
});

describe('npm run audit:verify', () => {
  beforeAll(async () => {
    await rebuildProjections({ pool, store });
  });

  it('reports an intact record and read models that match the replay, exit 0', async () => {
    const run = await npmRun('audit:verify', []);
    expect(run.stdout).toContain('OK: every hash chain is intact and every balance matches its replay.');
    expect(run.stdout).toMatch(/^Checked \d+ events in \d+ streams, and \d+ balances, 0 standing orders and \d+ journal lines against the read models\.$/m);
    expect(run.code).toBe(0);
    // Not a terminal here: its progress as plain lines, each phase named.
    expect(run.stdout).toMatch(/^reading the log: \d+ of \d+ events \(\d+ events\/s\)$/m);
    expect(run.stdout).toMatch(/^checking the streams: \d+ of \d+ streams/m);
    expect(run.stdout).toMatch(/^comparing the read models…$/m);
  });

  it('names exactly the stream whose stored event was changed in PostgreSQL, exit 1', async () => {
    const accountStream = `account-${alice}`;
    await tamperEvents(pool, `UPDATE eventstore.events SET data = jsonb_set(data, '{amountCents}', '999') WHERE stream_id = $1 AND type = 'StaffTransactionPosted'`, [
      accountStream,
    ]);
    try {
      const run = await npmRun('audit:verify', []);
      expect(run.code).toBe(1);
      const mismatchLines = run.stdout.split('\n').filter((line) => line.startsWith('  '));
      expect(mismatchLines.length).toBeGreaterThan(0);
      for (const line of mismatchLines) expect(line).toContain(accountStream);
      expect(run.stdout).toContain('hash_mismatch');
    } finally {
      await tamperEvents(pool, `UPDATE eventstore.events SET data = jsonb_set(data, '{amountCents}', '1000') WHERE stream_id = $1 AND type = 'StaffTransactionPosted'`, [
        accountStream,
      ]);
    }
    expect((await npmRun('audit:verify', [])).code).toBe(0);
  });

  it('names the stream whose newest event was deleted and its index fixed, by the signed checkpoint in CHECKPOINT_DIR, exit 1', async () => {
    const accountStream = `account-${alice}`;
    const { rows: [last] } = await pool.query<{ position: string }>('SELECT max(global_position)::text AS position FROM eventstore.events');
    await waitUntil(async () => ((await store.headPosition())?.prepare ?? 0n) >= BigInt(last!.position), { what: 'the log to show every event' });
    await createCheckpointWriter({ store, keys: parseKeyringText('checkpoint', 'CHECKPOINT_KEYS', TEST_CHECKPOINT_KEYS), dir: checkpointDir }).writeOnce();
    const intact = await npmRun('audit:verify', []);
    expect(intact.stdout).toMatch(/Compared with 1 signed checkpoint record in .*checkpoints, the newest of .* \(position \d+, \d+ streams\)\./);
    expect(intact.code).toBe(0);

    const { rows } = await pool.query<{ row: unknown; revision: string }>(
      'SELECT to_jsonb(e) AS row, e.revision::text AS revision FROM eventstore.events e WHERE stream_id = $1 ORDER BY revision DESC LIMIT 1',
      [accountStream],
    );
    const newest = BigInt(rows[0]!.revision);
    await tamperEvents(pool, 'DELETE FROM eventstore.events WHERE stream_id = $1 AND revision = $2', [accountStream, newest.toString()]);
    await pool.query('UPDATE eventstore.streams SET revision = $2 WHERE stream_id = $1', [accountStream, (newest - 1n).toString()]);
    try {
      const run = await npmRun('audit:verify', []);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`checkpoint  ${accountStream}  (revision ${newest}, position -)  checkpointed_events_missing`);
    } finally {
      // Put the record back as it was (the global log too), and forget the checkpoint, for the next tests.
      await pool.query('INSERT INTO eventstore.events SELECT * FROM jsonb_populate_record(NULL::eventstore.events, $1::jsonb)', [JSON.stringify(rows[0]!.row)]);
      await pool.query('UPDATE eventstore.streams SET revision = $2 WHERE stream_id = $1', [accountStream, newest.toString()]);
      rmSync(checkpointDir, { recursive: true, force: true });
    }
  });

  it('names exactly the stream from which a stored event was deleted, exit 1', async () => {
    const customerStream = `customer-${alice}`;
    const { rowCount } = await tamperEvents(pool, `DELETE FROM eventstore.events WHERE stream_id = $1 AND revision = 0`, [customerStream]);
    expect(rowCount).toBe(1);
    const run = await npmRun('audit:verify', []);
    expect(run.code).toBe(1);
    const mismatchLines = run.stdout.split('\n').filter((line) => line.startsWith('  '));
    expect(mismatchLines.length).toBeGreaterThan(0);
    for (const line of mismatchLines) expect(line).toContain(customerStream);
  });

  it('refuses arguments with exit 2', async () => {
    expect((await npmRun('audit:verify', ['--all'])).code).toBe(2);
  });
});

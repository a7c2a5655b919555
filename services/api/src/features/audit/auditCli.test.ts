import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createPostgresEventStore, ensureEventStoreSchema, type EventStore } from '@bank/eventstore';
import { createPool } from '@bank/platform';
import { rebuildProjections } from '@bank/projector';
import { createTestDatabase, type TestDatabase } from '@bank/platform/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistoryBuilder, type Actor } from './auditTestKit';

/** The auditors' CLIs, run as child processes (npm run audit:…) against a test database. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const exec = promisify(execFile);

let database: TestDatabase;
let pool: pg.Pool;
let store: EventStore;
let alice = '';
const admin: Actor = { id: randomUUID(), role: 'admin' };
const t = (day: number, hour = 10) => new Date(Date.UTC(2025, 1, day, hour));

async function npmRun(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec('npm', ['run', '--silent', script, '--', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: database.url, EVENTSTORE_URL: '', NODE_ENV: 'test', LOG_LEVEL: 'silent' },
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
    expect(run.code).toBe(0);
  });

  it('names exactly the stream whose stored event was changed in PostgreSQL, exit 1', async () => {
    const accountStream = `account-${alice}`;
    await pool.query(`UPDATE eventstore.events SET data = jsonb_set(data, '{amountCents}', '999') WHERE stream_id = $1 AND type = 'StaffTransactionPosted'`, [
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
      await pool.query(`UPDATE eventstore.events SET data = jsonb_set(data, '{amountCents}', '1000') WHERE stream_id = $1 AND type = 'StaffTransactionPosted'`, [
        accountStream,
      ]);
    }
    expect((await npmRun('audit:verify', [])).code).toBe(0);
  });

  it('names exactly the stream from which a stored event was deleted, exit 1', async () => {
    const customerStream = `customer-${alice}`;
    const { rowCount } = await pool.query(`DELETE FROM eventstore.events WHERE stream_id = $1 AND revision = 0`, [customerStream]);
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

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, parseConfig } from '@bank/platform';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@bank/testkit';
import { AUDIT_SCHEDULER_ID } from '@bank/worker';
import { startBank, type RunningBank } from './startBank';

let database: TestDatabase;
let redis: TestRedis;
let bank: RunningBank | undefined;
let projector: RunningBank | undefined;

beforeAll(async () => {
  [database, redis] = await Promise.all([createTestDatabase('worker_role'), createTestRedis()]);
});

afterAll(async () => {
  await bank?.stop();
  await projector?.stop();
  await redis?.clean();
  await database?.drop();
});

describe('a process with the worker role alone', () => {
  it('runs the transfer process and schedules the periodic audit of the read models, with no API and no projector of its own', async () => {
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bank-worker-role-')),
      LOG_LEVEL: 'silent',
    };
    const logger = createLogger('bank', 'silent');
    // The read models come from a projector elsewhere (here another bank of this test, as another process would be).
    projector = await startBank(parseConfig(env), { roles: { api: false, projector: true, worker: false }, env, logger });
    bank = await startBank(parseConfig(env), { roles: { api: false, projector: false, worker: true }, env, logger });
    expect(bank.server).toBeUndefined();
    expect(bank.projector).toBeUndefined();
    const schedulers = (await bank.worker!.maintenance.getJobSchedulers()).map((scheduler) => scheduler.key);
    expect(schedulers).toContain(AUDIT_SCHEDULER_ID);
    expect((await bank.worker!.auditCheck()).ok).toBe(true);

    // A standing order the log never held, written into the read model: the periodic audit names it.
    const orderId = '00000000-0000-4000-8000-00000000a0d1';
    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    try {
      await sql.query(
        `INSERT INTO rm.standing_orders (id, payer_id, status, from_account, account_number, recipient_name, amount_cents, description, frequency, day, first_date, created_at, last_position)
         VALUES ($1, $1, 'active', 'checking', '4000000001', 'Nobody', 100, 'forged', 'monthly', 1, '2026-01-01', now(), '0')`,
        [orderId],
      );
      const audit = await bank.worker!.auditCheck();
      expect(audit).toMatchObject({ ok: false, mismatches: 1 });
    } finally {
      await sql.query('DELETE FROM rm.standing_orders WHERE id = $1', [orderId]);
      await sql.end();
    }
    expect((await bank.worker!.auditCheck()).ok).toBe(true);
  });
});

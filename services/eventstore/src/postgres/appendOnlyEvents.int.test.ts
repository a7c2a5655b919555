import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createPool } from '@bank/platform';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvents } from '../conformance/conformanceHelpers';
import { ensureEventStoreSchema, EVENTS_APPEND_ONLY_TRIGGER } from './ensureEventStoreSchema';
import { createPostgresEventStore } from './postgresEventStore';
import { tombstoneStream } from './tombstoneStream';

/** The events table is append-only: for the owner by a trigger, for the application's role by its privileges. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const exec = promisify(execFile);
let database: TestDatabase;
let owner: pg.Pool;
const appRole = `bank_app_test_${randomBytes(4).toString('hex')}`;
let app: pg.Pool | undefined;

beforeAll(async () => {
  database = await createTestDatabase('eventstore_append_only');
  owner = createPool(database.url, 4);
  await ensureEventStoreSchema(owner);
});

afterAll(async () => {
  await app?.end();
  await owner?.end();
  await database?.drop();
  // The role is the server's, not the database's: remove it once the database (and its grants) are gone.
  const admin = createPool(database.url.replace(/\/[^/?]+(\?|$)/, '/postgres$1'), 1);
  await admin.query(`DROP ROLE IF EXISTS ${appRole}`).catch(() => undefined);
  await admin.end();
});

async function rejection(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected the statement to be refused');
}

describe('the PostgreSQL events table', () => {
  it('refuses UPDATE and DELETE, even from the table owner, while appends, reads and tombstones go on', async () => {
    const store = createPostgresEventStore({ pool: owner });
    try {
      await store.append('guarded-a', newEvents(3), 'no_stream');
      const update = await rejection(owner.query(`UPDATE eventstore.events SET data = '{"forged": true}' WHERE stream_id = 'guarded-a'`));
      expect(update.message).toMatch(/append-only: UPDATE on eventstore\.events is refused/);
      expect(update.code).toBe('42501');
      const remove = await rejection(owner.query(`DELETE FROM eventstore.events WHERE stream_id = 'guarded-a' AND revision = 2`));
      expect(remove.message).toMatch(/append-only: DELETE on eventstore\.events is refused/);
      expect((await store.readStream('guarded-a')).map((event) => event.data)).toEqual([{ index: 0 }, { index: 1 }, { index: 2 }]);

      await store.append('guarded-a', newEvents(1), 2n);
      await tombstoneStream(owner, 'guarded-b');
      expect(await store.readStream('guarded-a')).toHaveLength(4);
    } finally {
      await store.close();
    }
  });

  it('turns the guard back on when the schema is installed again after someone disabled it', async () => {
    await owner.query(`ALTER TABLE eventstore.events DISABLE TRIGGER ${EVENTS_APPEND_ONLY_TRIGGER}`);
    await owner.query('COMMENT ON SCHEMA eventstore IS NULL'); // as before an upgrade
    await ensureEventStoreSchema(owner);
    const { rows } = await owner.query<{ enabled: string }>(
      `SELECT tgenabled AS enabled FROM pg_trigger WHERE tgrelid = 'eventstore.events'::regclass AND tgname = $1`,
      [EVENTS_APPEND_ONLY_TRIGGER],
    );
    expect(rows).toEqual([{ enabled: 'O' }]);
    await expect(owner.query(`DELETE FROM eventstore.events`)).rejects.toThrow(/append-only/);
  });

  it('lets a least-privilege role append and read, and refuses it UPDATE, DELETE, TRUNCATE and disabling the trigger', async () => {
    await owner.query(`CREATE ROLE ${appRole} LOGIN`);
    // As docs/operations.md has it: the schema's owner installs it and grants the application's role.
    const { stdout } = await exec('npm', ['run', '--silent', 'eventstore:schema', '--', '--grant-to', appRole], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: database.url, EVENTSTORE_URL: '', NODE_ENV: 'test' },
      timeout: 60_000,
    });
    expect(stdout).toContain(`Granted ${appRole} what the application needs`);
    const url = new URL(database.url);
    url.username = appRole;
    app = createPool(url.toString(), 4);
    // What every start of the bank does: with the schema installed by its owner, nothing to do, nothing refused.
    await ensureEventStoreSchema(app);
    const store = createPostgresEventStore({ pool: app });
    try {
      await store.append('app-role', newEvents(2), 'no_stream');
      await store.append('app-role', newEvents(1), 1n);
      expect(await store.readStream('app-role')).toHaveLength(3);
      // The log's readers see an event once no older transaction is open on the server (the visibility fence), which
      // another database's work may hold a moment: the role may read the log, so it sees them once they pass it.
      for (const deadline = Date.now() + 30_000; !(await store.readAll({ limit: 1000 })).some((event) => event.streamId === 'app-role'); ) {
        if (Date.now() > deadline) throw new Error('the least-privilege role never saw its events in the log');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }

      for (const sql of [
        `UPDATE eventstore.events SET data = '{}' WHERE stream_id = 'app-role'`,
        `DELETE FROM eventstore.events WHERE stream_id = 'app-role'`,
        `TRUNCATE eventstore.events`,
        `ALTER TABLE eventstore.events DISABLE TRIGGER ${EVENTS_APPEND_ONLY_TRIGGER}`,
        `ALTER TABLE eventstore.events OWNER TO ${appRole}`,
      ]) {
        const refused = await rejection(app.query(sql));
        expect(refused.code, sql).toBe('42501');
      }
      expect(await store.readStream('app-role')).toHaveLength(3);
    } finally {
      await store.close();
    }
  });
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, STAFF_TEST_PASSWORD, uniqueEmail, type TestApp } from '../testing/testApp';
import { ensureFirstAdmin } from './ensureFirstAdmin';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp('staff_accounts');
});

afterAll(async () => {
  await t?.close();
});

describe('the first admin (ADMIN_EMAIL / ADMIN_PASSWORD at start-up)', () => {
  it('does nothing without both variables', async () => {
    expect(await ensureFirstAdmin(t.deps)).toBe('not-configured');
  });

  it('stops with a clear message when ADMIN_PASSWORD is under 12 characters', async () => {
    const deps = { ...t.deps, config: { ...t.deps.config, ADMIN_EMAIL: uniqueEmail('weak-admin'), ADMIN_PASSWORD: 'admin-pass' } };
    await expect(ensureFirstAdmin(deps)).rejects.toThrow(/ADMIN_PASSWORD: Password must be at least 12 characters/);
  });

  it('creates the admin when none exists, once', async () => {
    const email = uniqueEmail('first-admin');
    const deps = { ...t.deps, config: { ...t.deps.config, ADMIN_EMAIL: email, ADMIN_PASSWORD: 'admin-secret' } };
    expect(await ensureFirstAdmin(deps)).toBe('created');
    await t.settle();
    // The first admin is led through enrolling a second factor at the first sign-in.
    const signedIn = await t.signInWithCode(email, 'admin-secret');
    const me = await request(t.app).get('/api/auth/user').set(signedIn.auth);
    expect(me.body.data).toMatchObject({ email, role: 'admin', isAdmin: true });
    expect((await request(t.app).get('/api/user/admin').set(signedIn.auth)).status).toBe(200);
    expect(await ensureFirstAdmin(deps)).toBe('exists');
    const other = { ...t.deps, config: { ...t.deps.config, ADMIN_EMAIL: uniqueEmail('second-admin'), ADMIN_PASSWORD: 'admin-secret' } };
    expect(await ensureFirstAdmin(other)).toBe('exists');
  });
});

describe('npm run user:create', () => {
  it('creates an auditor who can sign in and reads only what auditors may', async () => {
    const email = uniqueEmail('cli-auditor');
    const { stdout } = await run('npx', ['tsx', 'services/api/src/cli/userCreate.ts', '--role', 'auditor', '--email', email, '--password', STAFF_TEST_PASSWORD], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: (t.deps.pool.options as { connectionString: string }).connectionString, LOG_LEVEL: 'silent' },
    });
    expect(stdout).toContain(`Created auditor ${email}`);
    // Appended by another process: wait until the projector shows it (the store's visible head may lag on a busy server).
    for (let waited = 0; waited < 20_000; waited += 100) {
      const { rowCount } = await t.deps.pool.query('SELECT 1 FROM rm.users WHERE email_lower = $1', [email]);
      if (rowCount) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const auditor = await t.signInWithCode(email, STAFF_TEST_PASSWORD);
    expect((await request(t.app).get('/api/auth/user').set(auditor.auth)).body.data.role).toBe('auditor');
    expect((await request(t.app).get('/api/user/admin').set(auditor.auth)).status).toBe(403);
  });

  it('refuses a staff password under 12 characters, saying so', async () => {
    const error = (await run('npx', ['tsx', 'services/api/src/cli/userCreate.ts', '--role', 'admin', '--email', uniqueEmail('short'), '--password', 'short-pass1'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: (t.deps.pool.options as { connectionString: string }).connectionString, LOG_LEVEL: 'silent' },
    }).catch((caught: unknown) => caught)) as { code?: number; stderr?: string };
    expect(error.code).toBe(1);
    expect(error.stderr).toContain('Password must be at least 12 characters');
  });

  it('refuses a wrong role with the usage', async () => {
    const error = (await run('npx', ['tsx', 'services/api/src/cli/userCreate.ts', '--role', 'customer', '--email', 'x@example.com', '--password', 'secret1'], {
      cwd: root,
    }).catch((caught: unknown) => caught)) as { code?: number; stderr?: string };
    expect(error.code).toBe(2);
    expect(error.stderr).toContain('Usage: npm run user:create');
  });
});

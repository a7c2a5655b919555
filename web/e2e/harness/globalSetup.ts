import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createTestDatabase, createTestRedis } from '@bank/platform/testing';
import { ensureWebBuild } from './buildWeb';
import { createStaffUser } from './createStaffUser';
import { startApiServer, type ApiServer } from './startApiServer';
import './providedContext';

export const ADMIN_EMAIL = 'admin@bank.test';
export const AUDITOR_EMAIL = 'auditor@bank.test';

/**
 * The e2e project's global setup, run once per `vitest run --project e2e`:
 *  1. builds web/dist when it is missing or older than the sources;
 *  2. creates a fresh PostgreSQL database and a Redis key prefix;
 *  3. starts the real server (`npx tsx services/api/src/main.ts`) on a free port and waits for /api/health;
 *  4. creates an auditor with the CLI `user:create --role auditor` against the server's database;
 *  5. provides `baseUrl`, `adminEmail`, `adminPassword`, `auditorEmail` and `auditorPassword` to the tests
 *     (inject('baseUrl'));
 * and, when the run ends, stops the server, drops the database and cleans the Redis prefix.
 *
 * Set E2E_BASE_URL to run the tests against a server that is already running instead (nothing is built or started,
 * no auditor is created: E2E_AUDITOR_EMAIL / E2E_AUDITOR_PASSWORD name an existing one, else the admin stands in).
 * Variables named E2E_API_<NAME> are passed to the server as <NAME> (e.g. E2E_API_SETTLEMENT_DELAY_MS=500).
 */
export default async function globalSetup(project: TestProject): Promise<() => Promise<void>> {
  const adminPassword = process.env.E2E_ADMIN_PASSWORD ?? `Admin-${randomBytes(6).toString('hex')}`;
  project.provide('adminEmail', process.env.E2E_ADMIN_EMAIL ?? ADMIN_EMAIL);
  project.provide('adminPassword', adminPassword);

  const external = process.env.E2E_BASE_URL;
  if (external) {
    project.provide('baseUrl', external.replace(/\/$/, ''));
    // Admins may use the audit screens too: without a named auditor, the admin stands in.
    const { E2E_AUDITOR_EMAIL: auditorEmail, E2E_AUDITOR_PASSWORD: auditorPassword } = process.env;
    const named = auditorEmail && auditorPassword;
    project.provide('auditorEmail', named ? auditorEmail : (process.env.E2E_ADMIN_EMAIL ?? ADMIN_EMAIL));
    project.provide('auditorPassword', named ? auditorPassword : adminPassword);
    return async () => undefined;
  }

  await ensureWebBuild();
  const database = await createTestDatabase('e2e');
  const redis = await createTestRedis();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bank-e2e-data-'));
  const passThrough = Object.fromEntries(
    Object.entries(process.env)
      .filter((entry): entry is [string, string] => entry[0].startsWith('E2E_API_') && entry[1] !== undefined)
      .map(([name, value]) => [name.slice('E2E_API_'.length), value]),
  );

  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL,
    ADMIN_PASSWORD: adminPassword,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    ...passThrough,
  };
  const auditor = {
    role: 'auditor' as const,
    email: process.env.E2E_AUDITOR_EMAIL ?? AUDITOR_EMAIL,
    password: process.env.E2E_AUDITOR_PASSWORD ?? `Auditor-${randomBytes(6).toString('hex')}`,
  };

  let server: ApiServer | undefined;
  try {
    server = await startApiServer(env);
    await createStaffUser(server.baseUrl, env, auditor);
  } catch (error) {
    await server?.stop().catch(() => undefined);
    await database.drop().catch(() => undefined);
    await redis.clean().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  console.log(`e2e: server at ${server.baseUrl} (database ${database.name}, log ${server.logFile})`);
  project.provide('baseUrl', server.baseUrl);
  project.provide('auditorEmail', auditor.email);
  project.provide('auditorPassword', auditor.password);
  const started = server;

  return async () => {
    await started.stop();
    await database.drop().catch((error: unknown) => console.warn('e2e: could not drop the test database', error));
    await redis.clean().catch((error: unknown) => console.warn('e2e: could not clean the Redis prefix', error));
    rmSync(dataDir, { recursive: true, force: true });
  };
}

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createTestDatabase, createTestRedis } from '@bank/testkit';
import { ensureWebBuild } from './buildWeb';
import { createStaffUser } from './createStaffUser';
import { enrolStaff, signInStaff } from './enrolStaff';
import { startApiServer, type ApiServer } from './startApiServer';
import './providedContext';

export const ADMIN_EMAIL = 'admin@bank.test';
export const AUDITOR_EMAIL = 'auditor@bank.test';

/**
 * The e2e project's global setup, run once per `vitest run --project e2e`:
 *  1. builds web/dist when it is missing or older than the sources;
 *  2. creates a fresh PostgreSQL database and a Redis key prefix;
 *  3. starts the real server (`npx tsx services/runtime/src/main.ts`) on a free port and waits for /api/health;
 *  4. creates an auditor with the CLI `user:create --role auditor` against the server's database;
 *  5. signs the admin and the auditor in once, enrolling their second factor (staff must have one);
 *  6. provides `baseUrl`, `adminEmail`, `adminPassword`, `auditorEmail`, `auditorPassword`, the two TOTP secrets
 *     (`adminTotpSecret`, `auditorTotpSecret`) and a session token of each (`adminToken`, `auditorToken`) to the
 *     tests (inject('baseUrl'));
 * and, when the run ends, stops the server, drops the database and cleans the Redis prefix.
 *
 * Set E2E_BASE_URL to run the tests against a server that is already running instead (nothing is built or started,
 * no auditor is created: E2E_AUDITOR_EMAIL / E2E_AUDITOR_PASSWORD name an existing one, else the admin stands in;
 * E2E_ADMIN_TOTP_SECRET / E2E_AUDITOR_TOTP_SECRET are their enrolled secrets, or they enrol now when they have none).
 * Variables named E2E_API_<NAME> are passed to the server as <NAME> (e.g. E2E_API_ACH_CUTOFFS=10:30,16:00).
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
    const base = external.replace(/\/$/, '');
    const adminEmail = process.env.E2E_ADMIN_EMAIL ?? ADMIN_EMAIL;
    const admin = await staffCredentials(base, adminEmail, adminPassword, process.env.E2E_ADMIN_TOTP_SECRET);
    const auditor = named ? await staffCredentials(base, auditorEmail, auditorPassword, process.env.E2E_AUDITOR_TOTP_SECRET) : admin;
    project.provide('auditorEmail', named ? auditorEmail : adminEmail);
    project.provide('auditorPassword', named ? auditorPassword : adminPassword);
    provideSecrets(project, admin, auditor);
    project.provide('databaseUrl', process.env.E2E_DATABASE_URL ?? '');
    project.provide('cliEnv', {
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
      ...(process.env.E2E_DATA_DIR ? { DATA_DIR: process.env.E2E_DATA_DIR } : {}),
    });
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
    // The journeys run beside the integration tier on two shared cores: a slow answer there is the machine, not a
    // backing service gone (the deadline's own tests are in services/api and the fault tier).
    REQUEST_DEADLINE_MS: '30000',
    // Every journey signs its customers up from 127.0.0.1: more than the 20 an hour one address may open (the limit's
    // own tests are in services/api).
    RATE_LIMIT_SIGNUPS: '1000',
    ...passThrough,
  };
  const auditor = {
    role: 'auditor' as const,
    email: process.env.E2E_AUDITOR_EMAIL ?? AUDITOR_EMAIL,
    password: process.env.E2E_AUDITOR_PASSWORD ?? `Auditor-${randomBytes(6).toString('hex')}`,
  };

  let server: ApiServer | undefined;
  let enrolled: { admin: StaffCredentials; auditor: StaffCredentials };
  try {
    server = await startApiServer(env);
    await createStaffUser(server.baseUrl, env, auditor);
    enrolled = {
      admin: await staffCredentials(server.baseUrl, ADMIN_EMAIL, adminPassword, undefined),
      auditor: await staffCredentials(server.baseUrl, auditor.email, auditor.password, undefined),
    };
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
  provideSecrets(project, enrolled.admin, enrolled.auditor);
  project.provide('databaseUrl', database.url);
  project.provide('cliEnv', { DATABASE_URL: database.url, DATA_DIR: dataDir });
  const started = server;

  return async () => {
    await started.stop();
    await database.drop().catch((error: unknown) => console.warn('e2e: could not drop the test database', error));
    await redis.clean().catch((error: unknown) => console.warn('e2e: could not clean the Redis prefix', error));
    rmSync(dataDir, { recursive: true, force: true });
  };
}

interface StaffCredentials {
  readonly secret: string;
  readonly token: string;
}

/** A staff member's TOTP secret and a session: enrolled now (first sign-in), or signed in with the secret given. */
async function staffCredentials(baseUrl: string, email: string, password: string, secret: string | undefined): Promise<StaffCredentials> {
  if (secret) return { secret, token: await signInStaff(baseUrl, email, password, secret) };
  return enrolStaff(baseUrl, email, password);
}

function provideSecrets(project: TestProject, admin: StaffCredentials, auditor: StaffCredentials): void {
  project.provide('adminTotpSecret', admin.secret);
  project.provide('adminToken', admin.token);
  project.provide('auditorTotpSecret', auditor.secret);
  project.provide('auditorToken', auditor.token);
}

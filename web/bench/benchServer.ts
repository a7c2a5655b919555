import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, createTestRedis } from '@bank/testkit';
import { ensureWebBuild } from '../e2e/harness/buildWeb';
import { startApiServer } from '../e2e/harness/startApiServer';

export interface BenchServer {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/**
 * The real server (`services/runtime/src/main.ts`, with the projector and the worker) on a free port, serving a fresh
 * production build of web/ (rebuilt when stale), against a fresh database and Redis prefix that `stop()` removes.
 */
export async function startBenchServer(log: (line: string) => void): Promise<BenchServer> {
  await ensureWebBuild(log);
  const database = await createTestDatabase('bench_web');
  const redis = await createTestRedis();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bank-bench-web-'));
  const cleanUp = async () => {
    await database.drop().catch(() => undefined);
    await redis.clean().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const server = await startApiServer({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      JWT_SECRET: randomBytes(32).toString('hex'),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
    });
    return {
      baseUrl: server.baseUrl,
      async stop() {
        await server.stop();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** Signs a fresh customer up and in through the API: the session the portal measurement uses. */
export async function newCustomerSession(baseUrl: string): Promise<{ token: string; user: unknown }> {
  const email = `bench-${randomBytes(4).toString('hex')}@bank.test`;
  const password = `bench-${randomBytes(6).toString('hex')}`;
  const call = async (route: string, body: unknown) => {
    const response = await fetch(`${baseUrl}/api${route}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST /api${route} answered ${response.status}: ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  await call('/auth/signup', {
    firstName: 'Grace',
    lastName: 'Hopper',
    email,
    phone: '+1 303 555 0102',
    password,
    address: '1 Harbour Road',
    state: 'Colorado',
  });
  return (await call('/auth/signin', { email, password })) as { token: string; user: unknown };
}
